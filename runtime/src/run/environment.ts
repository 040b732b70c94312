// The environment a script, project binary or system command runs with, as npm and Bun give it:
// node_modules/.bin of the package and every ancestor first on PATH, the npm_* variables that
// tools read (npm_lifecycle_event, npm_package_name, npm_config_user_agent, ...) and INIT_CWD.
// With --rt, a `node` shim that starts rt comes first on PATH, so `node x.ts` and binaries with
// a `#!/usr/bin/env node` shebang run on rt.
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { privateDirectory, untrustedWarning } from "../transpile/cache.js";
import { hashBytes } from "../transpile/hash.js";
import type { Manifest } from "./manifest.js";
import { onWindows, pathKey } from "./target.js";

declare const RT_VERSION: string;

export interface EnvironmentOptions {
  /** The script being run (pre/post steps have their own name); absent for binaries and commands. */
  readonly lifecycle?: { readonly event: string; readonly script: string };
  /** A directory holding the `node` shim (--rt). */
  readonly shimDir?: string;
}

let inherited: NodeJS.ProcessEnv | undefined;

export function scriptEnvironment(manifest: Manifest | undefined, { lifecycle, shimDir }: EnvironmentOptions): NodeJS.ProcessEnv {
  // process.env reads go to the C++ environment one variable at a time: copy it once per run.
  inherited ??= { ...process.env };
  const env: NodeJS.ProcessEnv = { ...inherited };
  const key = pathKey(env);
  env[key] = scriptPath(manifest?.dir ?? process.cwd(), env[key], shimDir);
  env.INIT_CWD = process.cwd();
  env.npm_config_user_agent = `rt/${RT_VERSION} npm/? node/${process.version} ${process.platform} ${process.arch}`;
  env.npm_execpath = process.argv[1];
  env.npm_node_execpath = process.execPath;
  env.npm_command = "run-script";
  if (manifest) {
    env.npm_package_json = manifest.file;
    env.npm_package_name = manifest.name;
    env.npm_package_version = manifest.version;
    if (manifest.name === undefined) delete env.npm_package_name;
    if (manifest.version === undefined) delete env.npm_package_version;
  }
  if (lifecycle) {
    env.npm_lifecycle_event = lifecycle.event;
    env.npm_lifecycle_script = lifecycle.script;
    // A script runs in its package's directory: PWD names it, as the shell would set it (a
    // simple command starts without one), unless the inherited PWD already does.
    if (manifest && manifest.dir !== process.cwd()) env.PWD = manifest.dir;
  }
  return env;
}

/**
 * A script's PATH: the `node` shim's directory (--rt), then node_modules/.bin of `dir` and of
 * every ancestor, then the inherited PATH. `system` is this one's `path` (path.win32 in tests).
 */
export function scriptPath(dir: string, inherited: string | undefined, shimDir?: string, system: path.PlatformPath = path): string {
  const binDirs: string[] = shimDir ? [shimDir] : [];
  for (let current = dir; ; current = system.dirname(current)) {
    // Concatenated, not path.join: `current` is absolute and normalized already (only a root ends with a separator).
    binDirs.push(`${current.endsWith(system.sep) ? current : current + system.sep}node_modules${system.sep}.bin`);
    if (system.dirname(current) === current) break;
  }
  return [...binDirs, inherited].filter(Boolean).join(system.delimiter);
}

/** The `node` shim for this system: its file name and text, which start rt's node-shim.cjs on `execPath`. */
export function nodeShim(execPath: string, launcher: string, system: path.PlatformPath = path): readonly [name: string, text: string] {
  return onWindows(system)
    ? ["node.cmd", `@"${execPath}" -- "${launcher}" %*\r\n`]
    : ["node", `#!/bin/sh\nexec '${execPath.replaceAll("'", `'"'"'`)}' -- '${launcher.replaceAll("'", `'"'"'`)}' "$@"\n`];
}

/**
 * The directory of a `node` executable that runs rt on this Node with this rt, created on first
 * use under rt's cache directory (named by the two paths, so different installs never clash).
 * Without a cache directory of this user's alone, a private temporary one, removed at exit: a
 * shim elsewhere in /tmp could be anybody's.
 */
export function nodeShimDir(cacheRoot: string | undefined): string {
  // dist/node-shim.cjs (beside this bundle): rt's CLI, or Node with rt's loader for Node's own flags.
  const [name, text] = nodeShim(process.execPath, path.join(__dirname, "node-shim.cjs"));
  if (cacheRoot) {
    const shims = path.join(cacheRoot, "node-shim");
    const dir = path.join(shims, hashBytes(Buffer.from(text), "node-shim"));
    try {
      // Each level: whoever owns node-shim/ could swap the directory under it.
      const problem = privateDirectory(shims) ?? privateDirectory(dir);
      if (problem === undefined) return writeShim(dir, name, text);
      process.stderr.write(untrustedWarning("cache directory", problem, "XDG_CACHE_HOME"));
    } catch {
      // not writable (a read-only or full disk): a temporary shim does as well
    }
  }
  const os = require("node:os") as typeof import("node:os");
  const dir = mkdtempSync(path.join(os.tmpdir(), "rt-node-shim-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return writeShim(dir, name, text);
}

function writeShim(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  if (!existsSync(file)) {
    // Written under a unique name and renamed: concurrent rt processes never see half a file.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, text, { mode: 0o700 });
    renameSync(temporary, file);
  }
  return dir;
}
