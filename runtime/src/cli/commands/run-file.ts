// `rt <file>` and `rt run <file>`.
import * as path from "node:path";
import { ProgramError } from "../../errors.js";
import { runEntry } from "../entry.js";
import { prepareRuntime, type Invocation } from "../prepare.js";

export function runFile(file: string, invocation: Invocation): Promise<void> {
  const { values, args } = invocation;
  // The entry follows --preserve-symlinks-main only (--preserve-symlinks is for imports), as in Node.
  const keepPath = values["preserve-symlinks-main"] === true;
  const { loader, entry } = prepareRuntime(invocation, (resolver) => (keepPath ? file : (resolver.resolvePath(file, false) ?? file)));
  loader.markEntry(entry);
  process.argv = [process.execPath, entry, ...args];
  return runEntry(loader, entry);
}

/** Files with these extensions are run by `rt <name>` even when a script has the same name. */
export const RUNNABLE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".jsx", ".js", ".mjs", ".cjs"];

export function moduleNotFound(target: string): ProgramError {
  return new ProgramError(`Module not found "${target}"`, "ERR_MODULE_NOT_FOUND");
}

export function isPathLike(target: string): boolean {
  return target.startsWith("./") || target.startsWith(".\\") || target.startsWith("../") || path.isAbsolute(target);
}
