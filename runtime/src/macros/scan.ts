// Finds macro imports (`import { f } from "./m.ts" with { type: "macro" }`) and the calls to
// their exports in one file's source, with js-tokens (no full parser: a macro call is an
// imported name, or `namespace.name`, directly followed by its argument list). Pure: nothing runs.
import type { Token } from "js-tokens";
import { ProgramError } from "../errors.js";
import { codeFrame, displayPath, lineColumn } from "../text.js";

/** The cheap test every transpiled file passes through: no "macro" in the text, no macro work. */
export function mayImportMacros(source: Uint8Array | string): boolean {
  const text = typeof source === "string" ? source : Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  return text.indexOf("macro") !== -1;
}

export interface MacroImport {
  readonly specifier: string;
  /** Character range of the import statement, removed from the output. */
  readonly start: number;
  readonly end: number;
}

export interface MacroCall {
  /** Index into MacroPlan.imports. */
  readonly module: number;
  readonly exportName: string;
  /** The arguments' source text, evaluated (as constants) where the macro runs. */
  readonly args: string;
  /** Character range of the whole call, replaced by its result. */
  readonly start: number;
  readonly end: number;
}

export interface MacroPlan {
  readonly file: string;
  readonly text: string;
  readonly imports: readonly MacroImport[];
  readonly calls: readonly MacroCall[];
}

interface Significant {
  readonly token: Token;
  readonly start: number;
}

/** The macro imports and calls of `text`; undefined when it has no macro import. */
export function scanMacros(file: string, text: string, jsx: boolean): MacroPlan | undefined {
  const tokens = significantTokens(text, jsx);
  const imports: MacroImport[] = [];
  /** Local name → [import index, export name ("*" for a namespace)]. */
  const locals = new Map<string, [number, string]>();
  const skip: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!isWord(tokens[i], "import") || isPunct(tokens[i - 1], ".") || isPunct(tokens[i + 1], "(") || isPunct(tokens[i + 1], ".")) continue;
    const statement = macroImportAt(tokens, i);
    if (!statement) continue;
    const index = imports.length;
    imports.push({ specifier: statement.specifier, start: statement.start, end: statement.end });
    for (const [local, exported] of statement.bindings) locals.set(local, [index, exported]);
    skip.push([statement.start, statement.end]);
    i = statement.lastToken;
  }
  if (imports.length === 0) return undefined;

  const calls: MacroCall[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const { token, start } = tokens[i]!;
    if (token.type !== "IdentifierName" || !locals.has(token.value)) continue;
    if (skip.some(([from, to]) => start >= from && start < to)) continue;
    const before = tokens[i - 1];
    if (isPunct(before, ".") || isPunct(before, "?.") || (isPunct(tokens[i + 1], ":") && (isPunct(before, "{") || isPunct(before, ",")))) continue;
    const [module, exported] = locals.get(token.value)!;
    let name = exported;
    let open = i + 1;
    if (exported === "*") {
      if (!isPunct(tokens[i + 1], ".") || tokens[i + 2]?.token.type !== "IdentifierName") throw notACall(file, text, start, token.value);
      name = tokens[i + 2]!.token.value;
      open = i + 3;
    }
    if (!isPunct(tokens[open], "(")) throw notACall(file, text, start, token.value);
    const close = matchingParen(tokens, open);
    if (close === -1) throw notACall(file, text, start, token.value);
    calls.push({
      module,
      exportName: name,
      args: text.slice(tokens[open]!.start + 1, tokens[close]!.start),
      start,
      end: tokens[close]!.start + 1,
    });
    i = close;
  }
  return { file, text, imports, calls };
}

function significantTokens(text: string, jsx: boolean): Significant[] {
  // js-tokens is an ES module exporting its function as "module.exports": require() returns it.
  const jsTokens = require("js-tokens") as typeof import("js-tokens").default;
  const tokens: Significant[] = [];
  let offset = 0;
  for (const token of jsTokens(text, { jsx }) as Iterable<Token>) {
    const start = offset;
    offset += token.value.length;
    if (token.type === "WhiteSpace" || token.type === "LineTerminatorSequence" || token.type.endsWith("Comment")) continue;
    tokens.push({ token, start });
  }
  return tokens;
}

interface ImportStatement {
  readonly specifier: string;
  readonly bindings: [string, string][];
  readonly start: number;
  readonly end: number;
  readonly lastToken: number;
}

/** The import statement starting at token `i`, if its attributes say `type: "macro"`. */
function macroImportAt(tokens: readonly Significant[], i: number): ImportStatement | undefined {
  let j = i + 1;
  const bindings: [string, string][] = [];
  if (tokens[j]?.token.type !== "StringLiteral") {
    // import def, { a, b as c } from / import * as ns from
    for (; j < tokens.length && !isWord(tokens[j], "from"); j++) {
      const t = tokens[j]!;
      if (isPunct(t, "*") && isWord(tokens[j + 1], "as")) {
        bindings.push([tokens[j + 2]!.token.value, "*"]);
        j += 2;
      } else if (isPunct(t, "{")) {
        for (j++; j < tokens.length && !isPunct(tokens[j], "}"); j++) {
          if (isPunct(tokens[j], ",") || isWord(tokens[j], "type")) continue;
          const exported = tokens[j]!.token.value;
          if (isWord(tokens[j + 1], "as")) {
            bindings.push([tokens[j + 2]!.token.value, unquote(exported)]);
            j += 2;
          } else bindings.push([exported, exported]);
        }
      } else if (t.token.type === "IdentifierName") {
        bindings.push([t.token.value, "default"]);
      } else if (!isPunct(t, ",")) return undefined;
    }
    j++;
  }
  const source = tokens[j];
  if (source?.token.type !== "StringLiteral") return undefined;
  if (!isWord(tokens[j + 1], "with") && !isWord(tokens[j + 1], "assert")) return undefined;
  if (!isPunct(tokens[j + 2], "{")) return undefined;
  let macro = false;
  let k = j + 3;
  for (; k < tokens.length && !isPunct(tokens[k], "}"); k++) {
    const key = tokens[k]!.token.value;
    if ((key === "type" || key === '"type"' || key === "'type'") && isPunct(tokens[k + 1], ":") && unquote(tokens[k + 2]?.token.value ?? "") === "macro")
      macro = true;
  }
  if (!macro || k >= tokens.length) return undefined;
  const last = isPunct(tokens[k + 1], ";") ? k + 1 : k;
  const end = tokens[last]!.start + tokens[last]!.token.value.length;
  return { specifier: unquote(source.token.value), bindings, start: tokens[i]!.start, end, lastToken: last };
}

function matchingParen(tokens: readonly Significant[], open: number): number {
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    const { type, value } = tokens[k]!.token;
    // A template's `${` and `}` belong to its Head/Middle/Tail tokens, not to punctuators.
    if (type === "TemplateHead" || (type === "Punctuator" && (value === "(" || value === "[" || value === "{"))) depth++;
    else if (type === "TemplateTail" || (type === "Punctuator" && (value === ")" || value === "]" || value === "}"))) depth--;
    if (depth === 0) return k;
  }
  return -1;
}

function isWord(t: Significant | undefined, word: string): boolean {
  return t?.token.type === "IdentifierName" && t.token.value === word;
}

function isPunct(t: Significant | undefined, punct: string): boolean {
  return t?.token.type === "Punctuator" && t.token.value === punct;
}

function unquote(literal: string): string {
  return /^["']/.test(literal) ? (JSON.parse(literal.startsWith("'") ? `"${literal.slice(1, -1).replace(/"/g, '\\"')}"` : literal) as string) : literal;
}

/** A macro problem at a place in a file: printed as a code frame, or handed to esbuild as a positioned message. */
export class MacroError extends ProgramError {
  constructor(
    readonly text: string,
    readonly location: { readonly file: string; readonly line: number; readonly column: number; readonly lineText: string },
    code: string,
  ) {
    const display = codeFrame(
      `${displayPath(location.file)}:${location.line}:${location.column + 1}`,
      `error: ${text}`,
      location.lineText,
      location.column + 1,
    );
    super(display.split("\n")[0]!, code, display);
  }
}

/** The error for a position in `text` (a character offset). */
export function errorAt(file: string, text: string, offset: number, message: string, code: string): MacroError {
  const { line, column } = lineColumn(text, offset);
  const lineText = text.split(/\r?\n/)[line - 1] ?? "";
  // 0-based column, as esbuild's locations count.
  return new MacroError(message, { file, line, column: column - 1, lineText }, code);
}

function notACall(file: string, text: string, offset: number, name: string): ProgramError {
  return errorAt(file, text, offset, `macro "${name}" can only be called, e.g. ${name}(), and its arguments must be constants`, "ERR_MACRO_USE");
}
