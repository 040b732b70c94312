// What F5 debugs (no launch.json, a folder that uses rt): the active file when it is a program,
// else the package's entry, found as VS Code's JavaScript debugger finds it (package.json `main`,
// else the last word of `scripts.start`, when that file exists).
//
// "Not a program" is decided cheaply, from the text alone: a module that exports something and
// whose every top-level statement is an import, an export or a declaration (function, class,
// const/let/var, type, interface, enum, namespace, declare) only defines things: running it
// does nothing. A top-level statement of any other kind (a call, `await`, `if`, `new`, ...)
// makes it a program. A library that does work at its top level is then run as it is, as
// before; a script that only declares and exports is the one left out.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import jsTokens from "js-tokens";
import { RUNNABLE_EXTENSIONS } from "../../contributions.js";

/** Words that begin a top-level statement that only defines something. */
const DECLARATIONS = new Set([
  "import",
  "export",
  "function",
  "async",
  "class",
  "abstract",
  "const",
  "let",
  "var",
  "type",
  "interface",
  "enum",
  "declare",
  "namespace",
  "module",
]);
/** What may start a top-level statement that does nothing by itself (a directive, an empty statement, a decorator). */
const HARMLESS_STARTS = new Set([";", "}", ")", "]", "@"]);
/** A statement that starts with one of these does something (an IIFE, an array, a template). */
const EFFECT_STARTS = new Set(["(", "[", "`"]);

/** True when the text, read as a module, only declares and exports (see the top of this file). */
export function isLibrary(text: string): boolean {
  let depth = 0;
  let exports = false;
  let lineStart = true;
  let previous: { type: string; value: string } = { type: "Punctuator", value: ";" };
  for (const token of jsTokens(text)) {
    if (token.type === "WhiteSpace" || token.type === "MultiLineComment" || token.type === "SingleLineComment") continue;
    if (token.type === "LineTerminatorSequence") {
      lineStart = depth === 0;
      continue;
    }
    if (token.type === "Invalid") return false;
    const statementStart = depth === 0 && (lineStart || previous.value === ";");
    // A line that goes on with the statement above (`x =⏎ f()`, `⏎ .then()`) starts nothing.
    const continued =
      (previous.type === "Punctuator" && !HARMLESS_STARTS.has(previous.value)) || (token.type === "Punctuator" && !EFFECT_STARTS.has(token.value));
    if (statementStart && !continued && !startsDeclaration(token)) return false;
    lineStart = false;
    if (token.type === "Punctuator" || token.type.startsWith("Template")) depth = Math.max(0, depth + nesting(token.value));
    if (depth === 0 && token.value === "export") exports = true;
    previous = token;
  }
  return exports;
}

/** How much a bracket (or a template's `${ … }` part) opens (+1) or closes (-1). */
function nesting(value: string): number {
  const opens = /^[([{]$|\$\{$/.test(value) ? 1 : 0;
  const closes = /^[)\]}]$|^\}/.test(value) ? 1 : 0;
  return opens - closes;
}

function startsDeclaration(token: { type: string; value: string }): boolean {
  if (token.type === "IdentifierName") return DECLARATIONS.has(token.value);
  return !EFFECT_STARTS.has(token.value) && !token.type.startsWith("Template");
}

/** The package entry js-debug would start for `dir`'s package, with where it was found. */
export async function packageEntry(dir: string, root: string): Promise<{ file: string; source: string } | undefined> {
  for (let current = dir; ; current = path.dirname(current)) {
    const manifest = await readFile(path.join(current, "package.json"), "utf8").then(
      (text) => JSON.parse(text) as { main?: unknown; scripts?: Record<string, unknown> },
      () => undefined,
    );
    if (manifest) {
      const start = manifest.scripts?.["start"];
      const candidates: [unknown, string][] = [
        [manifest.main, "package.json main"],
        [typeof start === "string" ? start.trim().split(/\s+/).pop() : undefined, "package.json scripts.start"],
      ];
      for (const [name, source] of candidates) {
        if (typeof name !== "string" || !name) continue;
        const file = path.resolve(current, name);
        if (existsSync(file) && (RUNNABLE_EXTENSIONS as readonly string[]).includes(path.extname(file))) return { file, source };
      }
      return undefined;
    }
    if (current === root || path.dirname(current) === current) return undefined;
  }
}

export interface Program {
  readonly file: string;
  /** Said in the Debug Console when the program is not the file F5 was pressed in. */
  readonly notice?: string;
}

/**
 * What F5 in `active` (a file of workspace folder `root`, its text as the editor has it) debugs:
 * the file when it is a program, else its package's entry; undefined when neither is there.
 */
export async function programFor(active: string, root: string, text: string): Promise<Program | undefined> {
  const runnable = (RUNNABLE_EXTENSIONS as readonly string[]).includes(path.extname(active));
  if (runnable && !isLibrary(text)) return { file: active };
  const entry = await packageEntry(path.dirname(active), root);
  const shown = (file: string) => path.relative(root, file).split(path.sep).join("/") || path.basename(file);
  if (entry && entry.file !== active) {
    const why = runnable ? "is not a program (it only declares and exports)" : "is not a file rt runs";
    return { file: entry.file, notice: `rt: ${shown(active)} ${why}; starting the package's entry ${shown(entry.file)} (${entry.source})\n` };
  }
  return runnable ? { file: active } : undefined;
}
