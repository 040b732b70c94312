// package.json as the script runner sees it: scripts in file order, workspace patterns and the
// names of the packages it depends on. A malformed file is the user's to fix: file:line:column.
import * as path from "node:path";
import { ProgramError } from "../errors.js";
import { cannotRead, parseJson, readProjectFile } from "../data-files.js";
import { displayPath } from "../text.js";

export interface Manifest {
  /** The package's directory and its package.json, absolute. */
  readonly dir: string;
  readonly file: string;
  readonly name?: string;
  readonly version?: string;
  /** Scripts in package.json order; entries whose value is not a string are left out. */
  readonly scripts: ReadonlyMap<string, string>;
  /** `workspaces` patterns (the array form or `{ "packages": [...] }`); undefined without the field. */
  readonly workspaces?: readonly string[];
  /** Every package named in dependencies, devDependencies, optionalDependencies, peerDependencies. */
  readonly dependsOn: ReadonlySet<string>;
}

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"];

/** Reads `dir/package.json`; undefined when there is none. */
export function readManifest(dir: string): Manifest | undefined {
  const file = path.join(dir, "package.json");
  const text = readProjectFile(file, cannotRead(file, "ERR_PACKAGE_JSON"));
  if (text === undefined) return undefined;
  return manifestFromJson(file, parseJson(file, text, "ERR_PACKAGE_JSON"));
}

/** The manifest of a parsed package.json at `file` (the language server parses the editor's text itself). */
export function manifestFromJson(file: string, json: unknown): Manifest {
  if (!isObject(json)) throw new ProgramError(`${displayPath(file)}: expected a JSON object`, "ERR_PACKAGE_JSON");
  const scripts = new Map<string, string>();
  if (isObject(json.scripts)) for (const [name, command] of Object.entries(json.scripts)) if (typeof command === "string") scripts.set(name, command);
  const dependsOn = new Set<string>();
  for (const field of DEPENDENCY_FIELDS) if (isObject(json[field])) for (const name of Object.keys(json[field])) dependsOn.add(name);
  return {
    dir: path.dirname(file),
    file,
    name: typeof json.name === "string" ? json.name : undefined,
    version: typeof json.version === "string" ? json.version : undefined,
    scripts,
    workspaces: workspacePatterns(json.workspaces, file),
    dependsOn,
  };
}

/** The package.json nearest to `dir` (itself or an ancestor), as npm and Bun find it. */
export function findManifest(dir: string): Manifest | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const manifest = readManifest(current);
    if (manifest) return manifest;
    if (path.dirname(current) === current) return undefined;
  }
}

export function noManifestError(dir: string): ProgramError {
  return new ProgramError(`No package.json found in ${dir} or any parent directory`, "ERR_NO_PACKAGE_JSON");
}

/** A package's name for labels: its `name`, else its directory relative to the cwd. */
export function packageLabel(manifest: Manifest): string {
  return manifest.name ?? (path.relative(process.cwd(), manifest.dir) || ".");
}

function workspacePatterns(field: unknown, file: string): readonly string[] | undefined {
  if (field === undefined) return undefined;
  const patterns = isObject(field) ? field.packages : field;
  if (Array.isArray(patterns) && patterns.every((pattern) => typeof pattern === "string")) return patterns;
  throw new ProgramError(`${displayPath(file)}: "workspaces" must be an array of glob patterns (or { "packages": [...] })`, "ERR_PACKAGE_JSON");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
