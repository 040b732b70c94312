// The shapes of the params the server reads, checked before use: a client that sends a number
// as a document's text, or a hover without a position, gets one line saying what is wrong
// (a logged line for a notification, InvalidParams for a request), never a stack.
import type { Connection, Disposable, NotificationHandler, TextDocuments } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";

type Check = (params: unknown) => string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const isWhole = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const isPosition = (value: unknown): boolean => isObject(value) && isWhole(value.line) && isWhole(value.character);

/** Each check names the first field that is wrong. */
function documentProblem(params: unknown, fields: Record<string, "string" | "integer">): string | undefined {
  const document = isObject(params) ? params.textDocument : undefined;
  if (!isObject(document)) return "params.textDocument is missing";
  for (const [field, type] of Object.entries(fields)) {
    const value = document[field];
    if (type === "string" ? typeof value !== "string" : !Number.isInteger(value))
      return `params.textDocument.${field} must be ${type === "string" ? "a string" : "an integer"}, not ${JSON.stringify(value) ?? "undefined"}`;
  }
  return undefined;
}

export const identifierProblem: Check = (params) => documentProblem(params, { uri: "string" });

export const positionProblem: Check = (params) =>
  identifierProblem(params) ??
  (isPosition((params as Record<string, unknown>).position) ? undefined : "params.position must be { line, character } of whole numbers");

const openProblem: Check = (params) => documentProblem(params, { uri: "string", languageId: "string", version: "integer", text: "string" });

const changeProblem: Check = (params) => {
  const problem = documentProblem(params, { uri: "string", version: "integer" });
  if (problem) return problem;
  const changes = (params as Record<string, unknown>).contentChanges;
  if (!Array.isArray(changes)) return "params.contentChanges must be an array";
  const bad = changes.findIndex(
    (change) =>
      !isObject(change) ||
      typeof change.text !== "string" ||
      (change.range !== undefined && !(isObject(change.range) && isPosition(change.range.start) && isPosition(change.range.end))),
  );
  return bad === -1 ? undefined : `params.contentChanges[${bad}] must be { text } or { range, text } with a string text`;
};

/**
 * The connection as `documents` listens to it: an open, change or close notification whose
 * params are malformed is logged in one line and dropped, so the documents stay as they were.
 */
export function listenChecked(documents: TextDocuments<TextDocument>, connection: Connection): Disposable {
  const checked =
    <P>(method: string, check: Check, handler: NotificationHandler<P>): NotificationHandler<P> =>
    (params) => {
      const problem = check(params);
      if (problem) connection.console.error(`rt-language-server: ignored ${method}: ${problem}`);
      else handler(params);
    };
  return documents.listen({
    onDidOpenTextDocument: (handler) => connection.onDidOpenTextDocument(checked("textDocument/didOpen", openProblem, handler)),
    onDidChangeTextDocument: (handler) => connection.onDidChangeTextDocument(checked("textDocument/didChange", changeProblem, handler)),
    onDidCloseTextDocument: (handler) => connection.onDidCloseTextDocument(checked("textDocument/didClose", identifierProblem, handler)),
    onWillSaveTextDocument: (handler) => connection.onWillSaveTextDocument(handler),
    onWillSaveTextDocumentWaitUntil: (handler) => connection.onWillSaveTextDocumentWaitUntil(handler),
    onDidSaveTextDocument: (handler) => connection.onDidSaveTextDocument(handler),
  });
}
