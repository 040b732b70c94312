// rtfig.toml completion and hover. Both read the text around the cursor (the table header above
// it, the key before `=`), not the parse tree: while typing, the file is rarely valid TOML.
import { CompletionItemKind, MarkupKind, type CompletionItem, type Hover } from "vscode-languageserver";
import type { Position } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { kebab } from "./diagnostics.js";
import { RTFIG_SCHEMA, expected, tableSchema, type Schema } from "./schema.js";

interface LineContext {
  /** The table the line belongs to ([] for the top level). */
  readonly table: string[];
  readonly line: string;
}

function lineContext(document: TextDocument, position: Position): LineContext {
  const lines = document.getText({ start: { line: 0, character: 0 }, end: { line: position.line + 1, character: 0 } }).split(/\r?\n/);
  let table: string[] = [];
  for (let i = position.line - 1; i >= 0; i--) {
    const header = /^\s*\[\[?\s*([^\]]*?)\s*\]/.exec(lines[i]!);
    if (header) {
      table = splitKey(header[1]!);
      break;
    }
  }
  return { table, line: lines[position.line] ?? "" };
}

/** `run.shell`, `"run" . 'shell'` → ["run", "shell"]. */
function splitKey(key: string): string[] {
  return [...key.matchAll(/"([^"]*)"|'([^']*)'|([^.\s]+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

export function rtfigCompletion(document: TextDocument, position: Position): CompletionItem[] {
  const { table, line } = lineContext(document, position);
  const before = line.slice(0, position.character);
  const typed = /[\w.-]*$/.exec(before)![0];
  const range = { start: { line: position.line, character: position.character - typed.length }, end: position };
  if (/^\s*\[/.test(before) && !before.includes("]")) {
    // A table header: the tables rtfig.toml has.
    return Object.entries(RTFIG_SCHEMA.properties ?? {})
      .filter(([, schema]) => schema.type === "object" || schema.anyOf?.some((form) => form.type === "object"))
      .map(([name, schema]) => ({ label: name, kind: CompletionItemKind.Module, documentation: schema.description, textEdit: { range, newText: name } }));
  }
  const eq = before.indexOf("=");
  if (eq === -1) {
    const dotted = splitKey(typed).slice(0, typed.endsWith(".") ? undefined : -1);
    const keys = tableSchema([...table, ...dotted])?.properties ?? {};
    const prefix = typed.slice(0, typed.lastIndexOf(".") + 1);
    // kebab-case keys (camelCase ones once the user types a capital), as rt reads them.
    const camel = /[A-Z]/.test(typed);
    const offered = Object.entries(keys).filter(([key]) => /[A-Z]/.test(key) === camel);
    return offered.map(([key, schema]) => ({
      label: key,
      kind: schema.type === "object" ? CompletionItemKind.Module : CompletionItemKind.Property,
      detail: expected(schema),
      documentation: schema.description,
      textEdit: { range, newText: schema.type === "object" ? `${prefix}${key}.` : `${prefix}${key} = ` },
    }));
  }
  const schema = keySchema(table, before.slice(0, eq));
  if (!schema) return [];
  const valueTyped = /[^\s=[,]*$/.exec(before)![0];
  const valueRange = { start: { line: position.line, character: position.character - valueTyped.length }, end: position };
  return valuesOf(schema).map((value) => ({
    label: value,
    kind: value === "true" || value === "false" ? CompletionItemKind.Keyword : CompletionItemKind.EnumMember,
    detail: schema.default !== undefined && JSON.stringify(schema.default) === value ? "default" : undefined,
    textEdit: { range: valueRange, newText: value },
  }));
}

export function rtfigHover(document: TextDocument, position: Position): Hover | null {
  const { table, line } = lineContext(document, position);
  const header = /^(\s*\[\[?\s*)([^\]]*?)\s*\]/.exec(line);
  const keyText = header ? header[2]! : /^\s*([^=]*?)\s*=/.exec(line)?.[1];
  if (!keyText) return null;
  const start = header ? header[1]!.length : line.indexOf(keyText);
  if (position.character < start || position.character > start + keyText.length) return null;
  const path = header ? splitKey(keyText) : [...table, ...splitKey(keyText)];
  const schema = keySchema([], path.join("."));
  if (!schema) return null;
  const name = path[path.length - 1]!;
  const flag = path.length === 1 || path[0] === "run" ? `\`--${kebab(name)}\`` : "";
  const parts = [
    `**${path.join(".")}**${flag && schema.type !== "object" ? ` (${flag})` : ""}`,
    schema.description ?? "",
    schema.type === "object" && !schema.anyOf ? "A table" : `Expects ${expected(schema)}`,
  ];
  if (schema.default !== undefined) parts.push(`Default: \`${JSON.stringify(schema.default)}\``);
  return {
    contents: { kind: MarkupKind.Markdown, value: parts.filter(Boolean).join("\n\n") },
    range: { start: { line: position.line, character: start }, end: { line: position.line, character: start + keyText.length } },
  };
}

/** The schema of `key` (possibly dotted) written in `table`. */
function keySchema(table: string[], key: string): Schema | undefined {
  let schema: Schema | undefined = RTFIG_SCHEMA;
  for (const segment of [...table, ...splitKey(key)]) schema = schema?.properties?.[segment];
  return schema;
}

/** Values to offer for a key, as TOML. */
function valuesOf(schema: Schema): string[] {
  const forms = schema.anyOf ?? [schema];
  return forms.flatMap((form) => (form.type === "boolean" ? ["true", "false"] : (form.enum ?? []).map((value) => JSON.stringify(value))));
}
