// --cwd <abs path>: the working directory changes before anything is resolved or read
// (rtfig.toml, env files, tsconfig.json, the entry).
import { statSync } from "node:fs";
import * as path from "node:path";
import { UsageError } from "../errors.js";

export function changeDirectory(directory: string | undefined): void {
  if (directory === undefined) return;
  if (!path.isAbsolute(directory)) throw new UsageError(`invalid value "${directory}" for --cwd: expected an absolute path, e.g. --cwd "$PWD/${directory}"`);
  if (!statSync(directory, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--cwd: no such directory: ${directory}`);
  process.chdir(directory);
}
