// `rt <file>` and `rt run <file>`.
import { statSync } from "node:fs";
import * as path from "node:path";
import { ProgramError, UsageError } from "../../errors.js";
import { readPackageJson } from "../../loader/resolve.js";
import { afterPreloads, runEntry } from "../entry.js";
import { prepareRuntime, type Invocation } from "../prepare.js";

export function runFile(file: string, invocation: Invocation): Promise<void> {
  const { values, args } = invocation;
  // The entry follows --preserve-symlinks-main only (--preserve-symlinks is for imports), as in Node.
  const keepPath = values["preserve-symlinks-main"] === true;
  const { loader, entry, hot } = prepareRuntime(invocation, (resolver) => (keepPath ? file : (resolver.resolvePath(file, false) ?? file)));
  loader.markEntry(entry);
  process.argv = [process.execPath, entry, ...args];
  const run = () => afterPreloads(loader, values.preload as string[] | undefined, () => runEntry(loader, entry));
  return hot ? hot.start(loader, entry, run) : run();
}

/** Files with these extensions are run by `rt <name>` even when a script has the same name. */
const RUNNABLE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".jsx", ".js", ".mjs", ".cjs"];

function moduleNotFound(target: string): ProgramError {
  return new ProgramError(`Module not found "${target}"`, "ERR_MODULE_NOT_FOUND");
}

function isPathLike(target: string): boolean {
  return target.startsWith("./") || target.startsWith(".\\") || target.startsWith("../") || path.isAbsolute(target);
}

/**
 * The file `rt <target>` / `rt run <target>` names: the path itself, or for a bare name (no
 * runnable extension, not a path) a package.json script (not runnable yet), then the name with
 * a runnable extension.
 */
export function resolveRunTarget(target: string): string {
  const file = path.resolve(target);
  if (statSync(file, { throwIfNoEntry: false })?.isFile()) return file;
  if (isPathLike(target) || RUNNABLE_EXTENSIONS.includes(path.extname(target))) throw moduleNotFound(target);
  const scripts = readPackageJson(path.resolve("package.json"))?.scripts;
  if (scripts && typeof scripts === "object" && target in scripts) {
    throw new UsageError(`running package.json scripts ("${target}") is not supported yet`);
  }
  const withExtension = RUNNABLE_EXTENSIONS.map((ext) => file + ext).find((candidate) => statSync(candidate, { throwIfNoEntry: false })?.isFile());
  if (withExtension) return withExtension;
  throw moduleNotFound(target);
}
