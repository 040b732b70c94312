// The language client for package.json and rtfig.toml: rt's language server (run over Node IPC)
// starts when the first such document is opened, not at activation.
import * as path from "node:path";
import * as vscode from "vscode";
import type { LanguageClient } from "./client.js";
import { LAYOUT } from "../../contributions.js";
import { output } from "../../output.js";

const SELECTOR = [
  { scheme: "file", language: "json", pattern: "**/package.json" },
  { scheme: "file", pattern: "**/rtfig.toml" },
];

let client: LanguageClient | undefined;

export function register(context: vscode.ExtensionContext): void {
  const startFor = (document: vscode.TextDocument) => {
    if (!client && vscode.languages.match(SELECTOR, document) > 0) void start(context);
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(startFor), { dispose: () => void client?.stop() });
  vscode.workspace.textDocuments.forEach(startFor);
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const { LanguageClient, TransportKind } = require("./language-client.cjs") as typeof import("./client.js");
  const module = path.join(context.extensionPath, LAYOUT.serverMain);
  const server = { module, transport: TransportKind.ipc };
  client = new LanguageClient(
    "rt",
    "rt Language Server",
    { run: server, debug: server },
    { documentSelector: SELECTOR, outputChannelName: "rt Language Server" },
  );
  try {
    await client.start();
    output().info(`language server started: ${module}`);
  } catch (error) {
    output().error(`language server ${module} did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
}
