// rt.inspect: for an error, the original source lines around where it was thrown (line numbers
// in a gutter, a caret under the column), then the error as util.inspect shows it (message,
// stack, own properties, `cause`, `AggregateError.errors`); for anything else, util.inspect.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { inspect as nodeInspect } from "node:util";
import { highlightLine } from "./highlight.js";
import { originalSource } from "./source-maps.js";

export interface InspectOptions {
  /** ANSI colours and syntax highlighting (default false). */
  readonly colors?: boolean;
  /** Passed on to util.inspect. */
  readonly depth?: number | null;
}

/** Lines shown before the failing line. */
const CONTEXT_LINES = 5;

export function inspect(value: unknown, options: InspectOptions = {}): string {
  const colors = options.colors === true;
  const details = nodeInspect(value, options.depth === undefined ? { colors } : { colors, depth: options.depth });
  if (!(value instanceof Error)) return details;
  const preview = sourcePreview(value, colors);
  return preview ? `${preview}\n${details}` : details;
}

interface ThrowSite {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** The first frame of a stack that names a file position: `at fn (file:L:C)` or `at file:L:C`. */
const FRAME = /^\s+at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/m;

function throwSite(error: Error): ThrowSite | undefined {
  let stack: unknown;
  try {
    stack = error.stack;
  } catch {
    return undefined;
  }
  const match = typeof stack === "string" ? FRAME.exec(stack) : null;
  if (!match) return undefined;
  const name = match[1]!;
  const file = name.startsWith("file:") ? fileURLToPath(name) : name;
  return { file, line: Number(match[2]), column: Number(match[3]) };
}

function sourceText(file: string): string | undefined {
  const original = originalSource(file);
  if (original !== undefined) return original;
  if (file.startsWith("node:")) return undefined;
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function sourcePreview(error: Error, colors: boolean): string | undefined {
  const site = throwSite(error);
  const text = site && sourceText(site.file);
  if (!site || text === undefined) return undefined;
  const lines = text.split(/\r?\n/);
  if (site.line > lines.length) return undefined;
  const first = Math.max(1, site.line - CONTEXT_LINES);
  const width = String(site.line).length;
  const out: string[] = [];
  for (let n = first; n <= site.line; n++) {
    const code = lines[n - 1]!;
    const gutter = `${String(n).padStart(width)} | `;
    if (!colors) out.push(`${gutter}${code}`);
    else if (n === site.line) out.push(`\x1b[1m\x1b[31m${gutter}\x1b[0m${highlightLine(code)}`);
    else out.push(`\x1b[2m${gutter}\x1b[0m${highlightLine(code)}`);
  }
  const caret = `${" ".repeat(width + 3 + site.column - 1)}${colors ? "\x1b[1m\x1b[31m^\x1b[0m" : "^"}`;
  out.push(caret);
  return out.join("\n");
}
