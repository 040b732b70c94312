// rt-language-server: package.json scripts and rtfig.toml for any LSP client. Talks LSP over
// stdio (--stdio), a Node IPC channel (--node-ipc, as the VS Code extension starts it) or a
// socket (--socket=<port>). Started by dist/server.cjs (see build.mjs).
import { Console } from "node:console";
import { type Connection, createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { framedInput } from "./core/framing.js";
import { startServer } from "./core/server.js";
import { packageJsonKind } from "./package-json/index.js";
import { rtfigKind } from "./rtfig/index.js";

declare const SERVER_VERSION: string;

export function main(): void {
  if (!process.argv.some((arg) => arg === "--stdio" || arg === "--node-ipc" || arg.startsWith("--socket=") || arg.startsWith("--pipe="))) {
    process.stderr.write("rt-language-server: give the transport: --stdio, --node-ipc, --socket=<port> or --pipe=<name>\n");
    process.exit(2);
  }
  let connection: Connection;
  if (process.argv.includes("--stdio")) {
    // stdin through the frame checker (core/framing.ts); stdout carries the protocol, so stray
    // console output goes to stderr (vscode-languageserver's own --stdio redirects it too).
    globalThis.console = new Console(process.stderr);
    const input = framedInput(process.stdin, (problem) => connection.console.error(`rt-language-server: ${problem}`));
    connection = createConnection(ProposedFeatures.all, input, process.stdout);
  } else connection = createConnection(ProposedFeatures.all);
  startServer(connection, [packageJsonKind, rtfigKind], SERVER_VERSION);
  connection.listen();
}
