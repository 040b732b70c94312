// What an uncaught exception or unhandled rejection prints: rt.inspect's preview (original
// source lines, caret, the error with its stack, properties and cause), then rt's and Node's
// versions; exit 1 as Node does. Colours on a terminal, following FORCE_COLOR and NO_COLOR.
import { ProgramError } from "../errors.js";
import { inspect } from "./preview.js";

declare const RT_VERSION: string;

export function installUncaughtReport(): void {
  process.on("uncaughtException", function reportUncaught(error) {
    // A program with its own handler decides for itself, as under Node.
    if (process.listenerCount("uncaughtException") > 1) return;
    // rt's own report of a user mistake (a module not found from a plain ES module that Node
    // loads itself) is printed as rt prints it everywhere: its text, no stack.
    if (error instanceof ProgramError) {
      process.stderr.write(error.display);
      process.exit(error.exitCode);
    }
    // An error Node raised with nothing but Node's own frames on its stack (loading a module:
    // an unknown built-in, a URL scheme no loader handles) is said in full by its header line.
    const header = nodeOnlyHeader(error);
    if (header) {
      process.stderr.write(`${header}\n`);
      process.exit(1);
    }
    const colors = wantsColors(process.stderr);
    const trailer = `rt v${RT_VERSION} (Node.js ${process.version}, ${process.platform} ${process.arch})`;
    const hint = noDefaultExportHint(error);
    process.stderr.write(`${inspect(error, { colors })}\n${hint ? `${hint}\n` : ""}\n${colors ? `\x1b[2m${trailer}\x1b[0m` : trailer}\n`);
    process.exit(1);
  });
}

// Node's link error for a default import of an ES module that has none, e.g. `import yaml from
// "js-yaml"` (its ESM build): Node and bun refuse it too, tsx compiles the importer to CommonJS.
const NO_DEFAULT_EXPORT = /^The requested module '([^']+)' does not provide an export named 'default'$/;

/** What to write instead of a default import that names no export (docs/running.md, "Module formats"). */
function noDefaultExportHint(error: unknown): string | undefined {
  const specifier = error instanceof SyntaxError ? NO_DEFAULT_EXPORT.exec(error.message)?.[1] : undefined;
  if (specifier === undefined) return undefined;
  return `hint: '${specifier}' is an ES module without a default export: import its names (import { name } from '${specifier}') or its namespace (import * as name from '${specifier}')`;
}

const FRAME = /^\s+at /;
const NODE_FRAME = /^\s+at (?:.* \()?node:/;

/** The header (`Error [ERR_X]: message`) of a Node error whose stack has only Node's frames, else undefined. */
function nodeOnlyHeader(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code } = error as { code?: unknown };
  const stack = error.stack;
  if (typeof code !== "string" || !code.startsWith("ERR_") || typeof stack !== "string") return undefined;
  const lines = stack.split("\n");
  const first = lines.findIndex((line) => FRAME.test(line));
  if (first <= 0 || !lines.slice(first).every((line) => NODE_FRAME.test(line))) return undefined;
  return lines.slice(0, first).join("\n");
}

/** Colour for a stream: FORCE_COLOR wins (unless 0/false), then NO_COLOR, then whether it is a colour terminal. */
export function wantsColors(stream: NodeJS.WriteStream): boolean {
  const force = process.env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  if (process.env.NO_COLOR) return false;
  return stream.isTTY === true && stream.hasColors();
}
