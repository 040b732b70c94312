// Offsets and ranges: the models work in document offsets; LSP wants line/character.
import type { Range } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";

export function rangeOf(document: TextDocument, start: number, end: number): Range {
  return { start: document.positionAt(start), end: document.positionAt(end) };
}

/** Whether `offset` lies in [start, end] (a cursor right after a word still touches it). */
export function touches(offset: number, start: number, end: number): boolean {
  return offset >= start && offset <= end;
}
