// Some behaviours exist only as Node/V8 options read at process start. rt applies them by
// replacing its own process image with one started with those options (process.execve; on
// Windows a child in its place): no second process, so the pid, signals, exit codes and stdio
// are exactly as without the flag.
// A restart costs a Node boot (~28 ms measured), so it happens only when a flag needs it.
import { flagValue, type FlagValue, type FlagValues } from "../flags/parse.js";
import { flagDefault, type FlagName } from "../flags/table.js";
import { UsageError } from "../errors.js";
import { replaceProcess } from "./replace.js";

/** rt flag → the Node options that implement it at process start (none: applied in-process). */
const STARTUP_OPTIONS: Readonly<Record<string, (value: FlagValue) => readonly string[]>> = {
  // Node's CommonJS loader re-resolves packages to their real path unless started with it.
  "preserve-symlinks": () => ["--preserve-symlinks"],
  // Buffer's pool and allocUnsafe skip zero-filling unless Node starts with it.
  "zero-fill-buffers": () => ["--zero-fill-buffers"],
  smol: smolOptions,
  title: (title) => (setTitle(String(title)) ? [] : [`--title=${title}`]),
  // Node picks its root certificates (and reads the OS or OpenSSL store) at start.
  "use-system-ca": () => ["--use-system-ca"],
  "use-default-lib-ca": () => ["--use-openssl-ca"],
  // Process-wide, as Bun's flag: node:http servers and clients and fetch() parse with it too.
  "max-http-header-size": (size) => (size === flagDefault("max-http-header-size") ? [] : [`--max-http-header-size=${size}`]),
};

/** Node starts with one root store: OpenSSL's default store excludes the other two. */
function assertOneTrustStore(values: FlagValues): void {
  if (values["use-default-lib-ca"] !== true) return;
  const others: readonly FlagName[] = ["use-system-ca", "use-bundled-ca"];
  const other = others.find((flag) => values[flag] === true);
  if (other) throw new UsageError(`--use-default-lib-ca and --${other} choose different certificate stores: give one of them`);
}

/**
 * Restarts this process with the Node options `values` need, if it was not started with them.
 * True when the restarted process runs rt from here on (Windows: a child), so this one must not.
 */
export function applyStartupOptions(values: FlagValues, rtArgs: readonly string[]): boolean {
  assertOneTrustStore(values);
  const started = new Set(process.execArgv.map(optionName));
  const missing: string[] = [];
  for (const [flag, options] of Object.entries(STARTUP_OPTIONS)) {
    const value = flagValue(values, flag);
    if (value === undefined || value === false) continue;
    for (const option of options(value)) if (!started.has(optionName(option))) missing.push(option);
  }
  if (missing.length === 0) return false;
  const launcher = process.argv[1]!;
  replaceProcess([process.execPath, ...process.execArgv, ...missing, "--", launcher, ...rtArgs]);
  return true;
}

function optionName(option: string): string {
  const eq = option.indexOf("=");
  return eq === -1 ? option : option.slice(0, eq);
}

/**
 * --smol: a 1 MiB young generation (scavenges run often and stay small), V8's memory-saving
 * mode (the old generation grows by smaller steps) and half the old-generation limit V8 chose
 * for this machine, which Node already derives from the memory available, cgroup limits included.
 */
function smolOptions(): readonly string[] {
  const { getHeapStatistics } = require("node:v8") as typeof import("node:v8");
  const limitMiB = Math.floor(getHeapStatistics().heap_size_limit / 2 / 2 ** 20);
  return ["--optimize-for-size", "--max-semi-space-size=1", `--max-old-space-size=${limitMiB}`];
}

/**
 * The title fits when the memory of the command line that started the process can hold it
 * (libuv writes it there); a longer one needs a start with `--title`. True when it was set.
 */
function setTitle(title: string): boolean {
  process.title = title;
  return process.title === title;
}
