// JSON, JSON-with-comments and TOML files of the user's project (package.json, tsconfig.json,
// rtfig.toml, imported data). A syntax error is the user's to fix: one line,
// `file:line:column: error: <message>`, without a stack.
import { readFileSync } from "node:fs";
import type { ParseError } from "jsonc-parser";
import { ProgramError } from "./errors.js";
import { displayPath, lineColumn } from "./text.js";

/**
 * A project file's text without a leading UTF-8 byte order mark (editors on Windows write one;
 * npm and Bun accept it), or undefined when there is no such file. A file that is there but
 * cannot be read (a directory, a symbolic link loop, no permission) throws what `fail` makes of
 * the reason, so the caller reports it as its own kind of mistake; `skipDirectory` counts a
 * directory as no file.
 */
export function readProjectFile(file: string, fail: (reason: string) => Error, { skipDirectory = false } = {}): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || (skipDirectory && code === "EISDIR")) return undefined;
    throw fail(unreadableReason(error));
  }
  return withoutBom(text);
}

export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Why a file that is there could not be read, in a few words. */
export function unreadableReason(error: unknown): string {
  return UNREADABLE[(error as NodeJS.ErrnoException).code ?? ""] ?? (error as Error).message;
}

const UNREADABLE: Record<string, string> = {
  EISDIR: "is a directory, not a file",
  ELOOP: "is a symbolic link loop",
  EACCES: "permission denied",
  EPERM: "permission denied",
};

/** `fail` for readProjectFile: a ProgramError (exit 1) `error: cannot read <file>: <reason>`. */
export function cannotRead(file: string, code: string): (reason: string) => ProgramError {
  return (reason) => new ProgramError(`cannot read ${displayPath(file)}: ${reason}`, code);
}

/** Strict JSON. JSON.parse is the fast path; a failure without a position asks a parser that reports one. */
export function parseJson(file: string, text: string, code: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8 quotes the text around the error (newlines and all): the code frame shows it instead.
    const message = (error as Error).message.replace(/, ".*" is not valid JSON$/s, "");
    const position = /at position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : parseWithPositions(text, true).errors[0]?.offset;
    throw syntaxError(file, code, offset === undefined ? undefined : lineColumn(text, offset), message);
  }
}

/** JSON with comments and trailing commas (tsconfig.json). */
export function parseJsonc(file: string, text: string, code: string): unknown {
  // The fast path, on every run in a project with a tsconfig.json: loading jsonc-parser costs
  // more than reading the file. It reports positions, so it still reads what JSON.parse refuses.
  try {
    return JSON.parse(jsoncAsJson(text));
  } catch {
    // A syntax error: jsonc-parser says where.
  }
  const { value, errors } = parseWithPositions(text, false);
  const first = errors[0];
  if (!first) return value;
  const { printParseErrorCode } = require("jsonc-parser") as typeof import("jsonc-parser");
  throw syntaxError(file, code, lineColumn(text, first.offset), printParseErrorCode(first.error));
}

export function parseToml(file: string, text: string, code: string): unknown {
  // smol-toml is only needed when there is TOML to read.
  const toml = require("smol-toml") as typeof import("smol-toml");
  try {
    return toml.parse(text);
  } catch (error) {
    const { line, column, message } = error as { line?: number; column?: number; message: string };
    throw syntaxError(file, code, line ? { line, column: column ?? 1 } : undefined, message.split("\n")[0]!);
  }
}

/** A value of the wrong type in a JSON(C) file: `file:line:column: error: <message>` at the value. */
export function jsonValueError(file: string, text: string, at: readonly (string | number)[], message: string, code: string): ProgramError {
  const { parseTree, findNodeAtLocation } = require("jsonc-parser") as typeof import("jsonc-parser");
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const node = tree && findNodeAtLocation(tree, [...at]);
  return syntaxError(file, code, node ? lineColumn(text, node.offset) : undefined, message);
}

/**
 * JSONC as JSON: comments and trailing commas become spaces (offsets and lines are kept), strings
 * untouched. Anything else that is not JSON stays, for JSON.parse to refuse.
 */
export function jsoncAsJson(text: string): string {
  const out = text.split("");
  // A comma ends a list only after a value ({, [, : or another comma before it is an error).
  let lastComma = -1;
  let previous = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "/" && text[i + 1] === "/") {
      for (; i < text.length && text[i] !== "\n"; i++) out[i] = " ";
      continue;
    }
    if (char === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      for (; i < stop; i++) if (text[i] !== "\n") out[i] = " ";
      i--;
      continue;
    }
    if (char === " " || char === "\t" || char === "\n" || char === "\r") continue;
    if (char === '"') for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    if ((char === "}" || char === "]") && lastComma !== -1) out[lastComma] = " ";
    lastComma = char === "," && !"{[,:".includes(previous) ? i : -1;
    previous = char;
  }
  return out.join("");
}

/** jsonc-parser, loaded on demand: most runs read no tsconfig.json and no broken JSON. */
function parseWithPositions(text: string, strict: boolean): { value: unknown; errors: ParseError[] } {
  const { parse } = require("jsonc-parser") as typeof import("jsonc-parser");
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, strict ? { disallowComments: true, allowTrailingComma: false } : { allowTrailingComma: true });
  return { value, errors };
}

function syntaxError(file: string, code: string, where: { line: number; column: number } | undefined, message: string): ProgramError {
  const location = where ? `${displayPath(file)}:${where.line}:${where.column}` : displayPath(file);
  const summary = `${location}: error: ${message}`;
  return new ProgramError(summary, code, `${summary}\n`);
}
