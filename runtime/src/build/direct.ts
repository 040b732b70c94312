// The fast way to run a one-shot build: esbuild's own executable with the same options as
// command-line arguments. It skips loading esbuild's JavaScript API and starting its service
// (~20 ms of a ~85 ms `rt build` of 5,000 lines). Plugins exist only in the API, so a build that
// needs one (a macro import, a TOML file: esbuild alone refuses both with known messages) runs
// again there.
import { existsSync, openSync, readSync, closeSync } from "node:fs";
import * as path from "node:path";
import type { BuildOptions } from "esbuild";
import { wantsColors } from "../diagnostics/uncaught.js";

export type DirectResult = { readonly done: true; readonly ok: boolean } | { readonly done: false };

/**
 * Builds with esbuild's executable; `done: false` when the API (with rt's plugins) must build
 * instead: esbuild refused a macro import, or found a file of `pluginExtensions` (TOML) it has no
 * loader for.
 */
export function buildDirectly(options: BuildOptions, pluginExtensions: readonly string[]): DirectResult {
  const binary = nativeBinary();
  const args = binary && commandLine(options);
  if (!binary || !args) return { done: false };
  const { spawnSync } = require("node:child_process") as typeof import("node:child_process");
  // stderr is read, not passed through: a failure caused by a macro import is not the user's to see.
  const colors = wantsColors(process.stderr);
  const child = spawnSync(binary, [...args, `--color=${colors}`], { stdio: ["ignore", "inherit", "pipe"], env: { GOGC: "off", ...process.env } });
  if (child.error || child.status === null) return { done: false };
  const messages = child.stderr.toString("utf8");
  if (child.status !== 0 && needsPlugins(messages, pluginExtensions)) return { done: false };
  process.stderr.write(messages);
  return { done: true, ok: child.status === 0 };
}

function needsPlugins(messages: string, extensions: readonly string[]): boolean {
  if (messages.includes('Importing with a type attribute of "macro" is not supported')) return true;
  return extensions.some((ext) => messages.includes(`No loader is configured for "${ext}" files`));
}

/** esbuild's native executable, when the package installed it as bin/esbuild (not a Node shim). */
function nativeBinary(): string | undefined {
  const configured = process.env.ESBUILD_BINARY_PATH;
  const binary = configured || path.join(path.dirname(require.resolve("esbuild/package.json")), "bin", "esbuild");
  if (!existsSync(binary)) return undefined;
  const head = Buffer.alloc(2);
  const fd = openSync(binary, "r");
  try {
    readSync(fd, head, 0, 2, 0);
  } finally {
    closeSync(fd);
  }
  return head.toString("latin1") === "#!" ? undefined : binary;
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** Keys whose record entries are written `--key:name=value`. */
const KEYED = new Set(["define", "loader", "outExtension", "banner", "footer"]);
/** Keys whose list items are written one flag each, `--key:item`. */
const REPEATED = new Set(["external", "drop"]);
/** Keys whose lists are written as one comma-separated value. */
const JOINED = new Set(["conditions", "resolveExtensions", "mainFields"]);

/**
 * The same build as esbuild command-line arguments; undefined when an option has no command-line
 * form here (the API builds then), so nothing is ever silently left out.
 */
export function commandLine(options: BuildOptions): string[] | undefined {
  const args: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || key === "write") continue;
    const flag = `--${kebab(key)}`;
    // esbuild's command line reads `out=in` as a named entry: such a path is left to the API.
    if (key === "entryPoints" && Array.isArray(value) && value.every((entry) => typeof entry === "string" && !entry.includes("="))) {
      // An entry starting with "-" would read as a flag; "./" keeps it a path.
      args.push(...value.map((entry: string) => (entry.startsWith("-") ? `./${entry}` : entry)));
    } else if (key === "tsconfigRaw" && typeof value === "object") args.push(`${flag}=${JSON.stringify(value)}`);
    else if (typeof value === "boolean") {
      // esbuild's defaults: every boolean off but source contents (and `--sourcemap` takes a mode, not false).
      if (key === "sourcesContent") {
        if (!value) args.push(`${flag}=false`);
      } else if (value) args.push(flag);
    } else if (typeof value === "string") args.push(`${flag}=${value}`);
    else if (KEYED.has(key) && typeof value === "object" && !Array.isArray(value)) {
      for (const [name, item] of Object.entries(value as Record<string, string>)) args.push(`${flag}:${name}=${item}`);
    } else if (REPEATED.has(key) && Array.isArray(value)) args.push(...value.map((item: string) => `${flag}:${item}`));
    else if (JOINED.has(key) && Array.isArray(value)) {
      // An empty list must still say so (no conditions, no main fields); esbuild reads "" as that.
      args.push(`${flag}=${value.join(",")}`);
    } else return undefined;
  }
  return args;
}
