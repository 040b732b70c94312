// The package.json scripts of a workspace folder, as `rt run --json` lists them: the folder's own
// package and, when it is a workspace root, every member package (rt reads the "workspaces"
// globs, so the editor and the CLI agree on what a monorepo holds).
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import { output } from "../../output.js";
import { runRt, runtimeExecutable } from "../../rt-executable.js";

export interface Script {
  readonly name: string;
  readonly command: string;
  /** The package's `name`, null without one. */
  readonly package: string | null;
  /** The folder of the package.json (where the script runs). */
  readonly dir: string;
}

/** The scripts under `folder`; none (and a line in the output channel) when there are none to list. */
export async function listScripts(folder: string): Promise<Script[]> {
  const manifest = await readManifest(folder);
  if (!manifest) return [];
  const executable = await runtimeExecutable(vscode.Uri.file(folder));
  const listings = [["run", "--json"]];
  if (manifest.workspaces !== undefined) listings.push(["run", "--json", "--filter", "*"]);
  const results = await Promise.all(listings.map((args) => runRt(executable, args, { cwd: folder })));
  const scripts = new Map<string, Script>();
  for (const result of results) {
    if (result.error || result.code !== 0) {
      output().warn(`rt run --json in ${folder}: ${result.error ?? result.stderr.trim()}`);
      continue;
    }
    const listed = parseListing(result.stdout);
    if (!listed) {
      output().warn(`rt run --json in ${folder} printed no list of scripts: is ${executable} rt?`);
      continue;
    }
    for (const script of listed) scripts.set(`${script.dir}\0${script.name}`, script);
  }
  return [...scripts.values()];
}

function parseListing(stdout: string): Script[] | undefined {
  try {
    const value: unknown = JSON.parse(stdout);
    return Array.isArray(value) ? (value as Script[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The package.json in `dir`, undefined if there is none or it is not an object. */
export async function readManifest(dir: string): Promise<{ workspaces?: unknown; scripts?: unknown } | undefined> {
  const text = await readFile(path.join(dir, "package.json"), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? value : undefined;
  } catch {
    // rt reports the syntax error with its position.
    return {};
  }
}
