// package.json as the server sees it: the parse tree (jsonc-parser keeps every node's offset),
// syntax errors, and each script with its key's range and its commands, positioned in the
// document. Built once per document version and shared by every feature.
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { manifestFromJson, type Manifest } from "rt-runtime/scripts";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { splitCommands, type ShellCommand, type Word } from "../core/shell-words.js";
import { rtInvocation, type RtInvocation } from "./rt-command.js";

export interface Script {
  readonly name: string;
  /** The key's string node, quotes included. */
  readonly keyStart: number;
  readonly keyEnd: number;
  /** The value as written (undefined when it is not a string: rt leaves such entries out). */
  readonly command?: string;
  /** The value's string node, quotes included. */
  readonly valueStart: number;
  readonly valueEnd: number;
  /** Commands and rt invocations with document offsets. */
  readonly commands: readonly ShellCommand[];
  readonly invocations: readonly RtInvocation[];
}

export interface Problem {
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

export interface PackageJson {
  readonly dir: string;
  readonly file: string;
  /** What rt's script runner would make of this text; undefined when it is not a JSON object. */
  readonly manifest?: Manifest;
  readonly scripts: readonly Script[];
  readonly syntaxErrors: readonly Problem[];
}

export function parsePackageJson(document: TextDocument): PackageJson {
  const file = fileURLToPath(document.uri);
  const text = document.getText();
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  // The first error only: the ones after it are mostly its echoes (an unterminated string
  // swallows the comma after it), and the first is the one to fix.
  const syntaxErrors = errors.slice(0, 1).map((error) => ({
    start: error.offset,
    end: error.offset + error.length,
    message: JSON_ERRORS[printParseErrorCode(error.error)] ?? printParseErrorCode(error.error),
  }));
  let manifest: Manifest | undefined;
  try {
    manifest = root?.type === "object" ? manifestFromJson(file, getNodeValue(root)) : undefined;
  } catch {
    // A malformed "workspaces" field: rt reports it when run; the scripts still get their features.
    manifest = root && manifestFromJson(file, { ...getNodeValue(root), workspaces: undefined });
  }
  const scriptsNode = root?.type === "object" ? property(root, "scripts") : undefined;
  const scripts: Script[] = [];
  if (scriptsNode?.type === "object") {
    for (const entry of scriptsNode.children ?? []) {
      const [key, value] = entry.children ?? [];
      if (key?.type !== "string" || !value) continue;
      const command = value.type === "string" ? (value.value as string) : undefined;
      const commands = command === undefined ? [] : positioned(splitCommands(command), stringOffsets(text, value));
      scripts.push({
        name: key.value as string,
        keyStart: key.offset,
        keyEnd: key.offset + key.length,
        command,
        valueStart: value.offset,
        valueEnd: value.offset + value.length,
        commands,
        invocations: commands.map(rtInvocation).filter((invocation) => invocation !== undefined),
      });
    }
  }
  return { dir: path.dirname(file), file, manifest, scripts, syntaxErrors };
}

/** jsonc-parser's error codes (by name) in words. */
const JSON_ERRORS: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "a property name in double quotes expected",
  ValueExpected: "a value expected",
  ColonExpected: "':' expected",
  CommaExpected: "',' expected",
  CloseBraceExpected: "'}' expected",
  CloseBracketExpected: "']' expected",
  EndOfFileExpected: "end of file expected",
  InvalidCommentToken: "comments are not allowed in package.json",
  UnexpectedEndOfComment: "unterminated comment",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid \\u escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "a control character in a string (write it escaped)",
};

function property(object: Node, name: string): Node | undefined {
  return object.children?.find((entry) => entry.children?.[0]?.value === name)?.children?.[1];
}

/**
 * Maps an index in a JSON string's value to its offset in the document: escapes such as `\"`
 * and `\u0041` take several characters (most scripts have none: then it is an addition).
 */
function stringOffsets(text: string, node: Node): (index: number) => number {
  const start = node.offset + 1;
  const end = node.offset + node.length - 1;
  // An escape is always longer than the character it stands for: same length, no escapes.
  if ((node.value as string).length === end - start) return (index) => Math.min(start + index, end);
  const offsets: number[] = [];
  for (let i = start; i < end; ) {
    offsets.push(i);
    i += text[i] !== "\\" ? 1 : text[i + 1] === "u" ? 6 : 2;
  }
  offsets.push(end);
  return (index) => offsets[Math.min(index, offsets.length - 1)]!;
}

function positioned(commands: ShellCommand[], at: (index: number) => number): ShellCommand[] {
  const word = (w: Word): Word => ({ text: w.text, start: at(w.start), end: at(w.end) });
  return commands.map((command) => ({ words: command.words.map(word), end: at(command.end) }));
}
