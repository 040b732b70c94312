// The server: keeps the documents it owns in sync (incremental changes), parses each version
// once, publishes diagnostics after changes settle, and routes requests to the document's kind.
// Documents of any other name are never parsed or answered.
import { posix } from "node:path";
import {
  CancellationToken,
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  TextDocumentSyncKind,
  TextDocuments,
  type Connection,
  type InitializeResult,
  type TextDocumentIdentifier,
} from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { AnyKind } from "./kinds.js";
import { identifierProblem, listenChecked, positionProblem } from "./params.js";

/** How long after the last edit diagnostics run (well under a keystroke's interval). */
const SETTLE_MS = 2;

export function startServer(connection: Connection, kinds: readonly AnyKind[], version: string): void {
  const documents = new TextDocuments(TextDocument);
  // A bug in one feature answers nothing for that request and is logged; the server stays up.
  const guarded = <T>(work: () => T, fallback: T): T => {
    try {
      return work();
    } catch (error) {
      connection.console.error(`rt-language-server: ${(error as Error).stack ?? String(error)}`);
      return fallback;
    }
  };
  const models = new Map<string, { version: number; model: unknown }>();

  // Files on disk with a kind's name, outside node_modules (installed packages are not the user's to edit).
  const kindOf = (uri: string): AnyKind | undefined => {
    if (!uri.startsWith("file:")) return undefined;
    const { pathname } = new URL(uri);
    if (pathname.includes("/node_modules/")) return undefined;
    return kinds.find((kind) => kind.fileName === posix.basename(pathname));
  };

  /** The document, its kind and its model (parsed once per version), if the server owns it. */
  const owned = ({ uri }: TextDocumentIdentifier) => {
    const kind = kindOf(uri);
    const document = kind && documents.get(uri);
    if (!kind || !document) return undefined;
    let cached = models.get(uri);
    if (cached?.version !== document.version) {
      cached = { version: document.version, model: kind.parse(document) };
      models.set(uri, cached);
    }
    return { kind, document, model: cached.model };
  };

  // Diagnostics run once the edits have settled (no change for SETTLE_MS): the editor sends one
  // message per keystroke and vscode-jsonrpc handles one message per turn of the event loop, so
  // a burst of keystrokes costs one run on the latest text. A run whose document changed
  // meanwhile is dropped (cancelled).
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const runDiagnostics = (): void => {
    for (const uri of [...pending]) {
      pending.delete(uri);
      const found = guarded(() => owned({ uri }), undefined);
      if (!found) continue;
      const { version } = found.document;
      const token: CancellationToken = {
        get isCancellationRequested() {
          return documents.get(uri)?.version !== version || pending.has(uri);
        },
        onCancellationRequested: CancellationToken.None.onCancellationRequested,
      };
      const diagnostics = guarded(() => found.kind.diagnostics(found.document, found.model, token), null);
      if (diagnostics && !token.isCancellationRequested) void connection.sendDiagnostics({ uri, version, diagnostics });
    }
  };
  const scheduleDiagnostics = (uri: string): void => {
    if (!kindOf(uri)) return;
    pending.add(uri);
    clearTimeout(timer);
    timer = setTimeout(runDiagnostics, SETTLE_MS);
  };

  documents.onDidChangeContent(({ document }) => scheduleDiagnostics(document.uri));
  documents.onDidClose(({ document }) => {
    models.delete(document.uri);
    pending.delete(document.uri);
    if (kindOf(document.uri)) void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });

  // Until initialize, requests are refused (ServerNotInitialized) and notifications dropped: the
  // documents are listened to from initialize on (a notification without a handler is dropped).
  let initialized = false;
  connection.onInitialize((): InitializeResult => {
    if (!initialized) listenChecked(documents, connection);
    initialized = true;
    return {
      serverInfo: { name: "rt-language-server", version },
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: [" ", "-", "=", "[", "."] },
        hoverProvider: true,
        codeLensProvider: { resolveProvider: false },
        documentLinkProvider: { resolveProvider: false },
      },
    };
  });
  const notInitialized = (method: string) => new ResponseError(ErrorCodes.ServerNotInitialized, `${method} before initialize: send initialize first`);
  // Requests no feature handles.
  connection.onRequest((method) => (initialized ? new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`) : notInitialized(method)));

  // Every request: refused before initialize, with malformed params (InvalidParams, one line) or
  // once cancelled; answered null for a document the server does not own, and null (logged) if
  // the feature fails.
  type Owned = NonNullable<ReturnType<typeof owned>>;
  const answer = <P extends { textDocument: TextDocumentIdentifier }, T>(
    method: string,
    params: P,
    token: CancellationToken,
    feature: (found: Owned) => T | undefined,
    problem = identifierProblem,
  ) => {
    if (!initialized) return notInitialized(method);
    const invalid = problem(params);
    if (invalid) return new ResponseError(ErrorCodes.InvalidParams, `${method}: ${invalid}`);
    if (token.isCancellationRequested) return new ResponseError(LSPErrorCodes.RequestCancelled, "request cancelled");
    return guarded(() => {
      const found = owned(params.textDocument);
      return (found && feature(found)) ?? null;
    }, null);
  };
  connection.onCompletion((params, token) =>
    answer("textDocument/completion", params, token, ({ kind, document, model }) => kind.completion?.(document, model, params.position), positionProblem),
  );
  connection.onHover((params, token) =>
    answer("textDocument/hover", params, token, ({ kind, document, model }) => kind.hover?.(document, model, params.position), positionProblem),
  );
  connection.onCodeLens((params, token) => answer("textDocument/codeLens", params, token, ({ kind, document, model }) => kind.codeLenses?.(document, model)));
  connection.onDocumentLinks((params, token) =>
    answer("textDocument/documentLink", params, token, ({ kind, document, model }) => kind.links?.(document, model, token)),
  );
}
