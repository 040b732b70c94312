// What the server needs from each kind of document it owns (package.json, rtfig.toml): a parse
// into a model, shared by the features each kind has. Every feature is optional.
import type { CancellationToken, CodeLens, CompletionItem, Diagnostic, DocumentLink, Hover, Position } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";

export interface DocumentKind<Model> {
  /** The file name this kind owns, in any folder. */
  readonly fileName: string;
  parse(document: TextDocument): Model;
  diagnostics(document: TextDocument, model: Model, token: CancellationToken): Diagnostic[];
  completion?(document: TextDocument, model: Model, position: Position): CompletionItem[];
  hover?(document: TextDocument, model: Model, position: Position): Hover | null;
  codeLenses?(document: TextDocument, model: Model): CodeLens[];
  links?(document: TextDocument, model: Model, token: CancellationToken): DocumentLink[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry of kinds with different models
export type AnyKind = DocumentKind<any>;
