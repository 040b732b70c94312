// What a name given to `rt <name>` / `rt run <name>` runs. The order: (1) a package.json script,
// (2) a source file, (3) a binary from node_modules/.bin of the cwd and its ancestors, (4) with
// `run` only, a system command on PATH. Absolute paths and paths starting ./ .\ ../ are always
// files; without `run`, a name with a runnable extension is a file too, and a built-in command
// of the same name wins (the parser sees it first), so `rt run <name>` forces the script.
import { statSync } from "node:fs";
import * as path from "node:path";
import { ProgramError } from "../errors.js";
import { closestMatches } from "../text.js";
import { findManifest, type Manifest } from "./manifest.js";
import { RUNNABLE_EXTENSIONS } from "./rules.js";

export type RunTarget =
  | { readonly kind: "file"; readonly file: string }
  | { readonly kind: "script"; readonly manifest: Manifest; readonly name: string }
  | { readonly kind: "binary" | "command"; readonly file: string; readonly name: string }
  /** Nothing of that name, and --if-present was given. */
  | { readonly kind: "absent" };

export interface ResolveOptions {
  /** `rt run <name>` rather than `rt <name>`: scripts before files, system commands allowed. */
  readonly forced: boolean;
  readonly ifPresent: boolean;
  /** Where the name is resolved; the process's cwd by default (the language server passes a package's dir). */
  readonly cwd?: string;
  /**
   * The package whose scripts come first. Absent: the nearest package.json to `cwd`, read from
   * disk; `undefined` given: no scripts at all (what a shell finds for a command's program).
   */
  readonly manifest?: Manifest;
}

export function resolveRunTarget(target: string, { forced, ifPresent, cwd = process.cwd(), ...options }: ResolveOptions): RunTarget {
  const absent = (error: ProgramError): RunTarget => {
    if (ifPresent) return { kind: "absent" };
    throw error;
  };
  const runnable = RUNNABLE_EXTENSIONS.includes(path.extname(target));
  if (isPathLike(target) || (runnable && !forced)) {
    const file = existingFile(cwd, fromWindowsStyle(target));
    return file ? { kind: "file", file } : absent(moduleNotFound(target));
  }
  const manifest = "manifest" in options ? options.manifest : findManifest(cwd);
  if (manifest?.scripts.has(target)) return { kind: "script", manifest, name: target };
  const file = existingFile(cwd, target) ?? RUNNABLE_EXTENSIONS.map((ext) => existingFile(cwd, target + ext)).find(Boolean);
  if (file) return { kind: "file", file };
  const binary = findProjectBinary(cwd, target);
  if (binary) return { kind: "binary", file: binary, name: target };
  const command = forced ? findExecutable(target, process.env) : undefined;
  if (command) return { kind: "command", file: command, name: target };
  return absent(runnable ? moduleNotFound(target) : scriptNotFound(target, manifest));
}

export function scriptNotFound(name: string, manifest: Manifest | undefined): ProgramError {
  const close = closestMatches(name, [...(manifest?.scripts.keys() ?? [])]).slice(0, 3);
  const hint = close.length ? ` (did you mean ${close.map((n) => `"${n}"`).join(" or ")}?)` : "";
  return new ProgramError(`Script not found "${name}"${hint}`, "ERR_SCRIPT_NOT_FOUND");
}

function moduleNotFound(target: string): ProgramError {
  return new ProgramError(`Module not found "${target}"`, "ERR_MODULE_NOT_FOUND");
}

function isPathLike(target: string): boolean {
  return /^\.{1,2}[/\\]/.test(target) || path.isAbsolute(target) || path.win32.isAbsolute(target);
}

/** `.\src\app.ts` (a Windows-style path in a shared script) names `./src/app.ts` elsewhere too. */
function fromWindowsStyle(target: string): string {
  return path.sep === "/" && /^\.{1,2}\\/.test(target) ? target.replaceAll("\\", "/") : target;
}

function existingFile(cwd: string, target: string): string | undefined {
  const file = path.resolve(cwd, target);
  return statSync(file, { throwIfNoEntry: false })?.isFile() ? file : undefined;
}

/** Whether `system` (a `path` implementation: path.win32 in tests) is Windows'. */
export function onWindows(system: path.PlatformPath): boolean {
  return system.sep === "\\";
}

/** `name` in node_modules/.bin of `dir` or an ancestor (npm's and Bun's lookup). */
function findProjectBinary(dir: string, name: string): string | undefined {
  if (name.includes("/") || name.includes("\\")) return undefined;
  for (let current = dir; ; current = path.dirname(current)) {
    const found = executableIn(path.join(current, "node_modules", ".bin"), name, process.env);
    if (found) return found;
    if (path.dirname(current) === current) return undefined;
  }
}

/** `name` as `$PATH` would find it (with `%PATHEXT%` on Windows). */
export function findExecutable(name: string, env: NodeJS.ProcessEnv): string | undefined {
  if (name.includes("/") || name.includes("\\")) return undefined;
  for (const dir of (env[pathKey(env)] ?? "").split(path.delimiter)) {
    const found = dir ? executableIn(dir, name, env) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** The PATH variable's name, whatever its case (Windows spells it `Path`; its variables ignore case). */
export function pathKey(env: NodeJS.ProcessEnv, system: path.PlatformPath = path): string {
  return onWindows(system) ? (Object.keys(env).find((key) => key.toUpperCase() === "PATH") ?? "Path") : "PATH";
}

/** The files `name` may be in `dir`, in the order tried: on Windows with each %PATHEXT% extension. */
export function executableCandidates(dir: string, name: string, env: NodeJS.ProcessEnv, system: path.PlatformPath = path): string[] {
  const extensions = onWindows(system) ? ["", ...(env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";")] : [""];
  return extensions.map((extension) => system.join(dir, name + extension));
}

function executableIn(dir: string, name: string, env: NodeJS.ProcessEnv): string | undefined {
  const windows = onWindows(path);
  for (const file of executableCandidates(dir, name, env)) {
    const stat = statSync(file, { throwIfNoEntry: false });
    // On Windows the extension makes a file executable; elsewhere, an execute bit.
    if (stat?.isFile() && (windows ? file !== path.join(dir, name) : (stat.mode & 0o111) !== 0)) return file;
  }
  return undefined;
}
