// Some behaviours exist only as Node options read at process start. rt applies them by
// replacing its own process image with one started with those options (process.execve):
// no second process, so signals, exit codes and stdio behave exactly as without the flag.
import type { FlagValues } from "./parse.js";

/** rt flag → the Node option that implements it at process start. */
const STARTUP_OPTIONS: Readonly<Record<string, string>> = {
  // Node's CommonJS loader re-resolves packages to their real path unless started with it.
  "preserve-symlinks": "--preserve-symlinks",
};

/** Restarts this process with the Node options `values` need, if it was not started with them. */
export function applyStartupOptions(values: FlagValues, rtArgs: readonly string[]): void {
  const missing = Object.entries(STARTUP_OPTIONS)
    .filter(([flag, option]) => values[flag] === true && !process.execArgv.includes(option))
    .map(([, option]) => option);
  if (missing.length === 0) return;
  const launcher = process.argv[1]!;
  process.execve!(process.execPath, [process.execPath, ...process.execArgv, ...missing, "--", launcher, ...rtArgs], process.env);
}
