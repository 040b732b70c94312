// An LSP client for the tests and the benchmark: starts the built server (server/dist/server.cjs)
// as its own process over stdio (or Node IPC) and talks to it with vscode-languageserver-protocol,
// as an editor would.
import assert from "node:assert/strict";
import { fork, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createProtocolConnection, IPCMessageReader, IPCMessageWriter, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";

export const SERVER = fileURLToPath(new URL("../dist/server.cjs", import.meta.url));
export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const FIXTURES = path.join(REPO, "test", "fixtures", "lsp");
const GOLDEN = fileURLToPath(new URL("./golden/", import.meta.url));

export const uriOf = (file) => pathToFileURL(file).href;

// A test that fails before shutdown() leaves its server running: test files end them all with
// `after(killServers)` (the benchmark uses this module too, without node:test).
const children = new Set();
export function killServers() {
  for (const child of children) child.kill();
}

/** A started server with an initialized connection. `close()` shuts it down properly. */
export async function startServer({ transport = "stdio" } = {}) {
  const started = performance.now();
  const child =
    transport === "ipc"
      ? fork(SERVER, ["--node-ipc"], { stdio: ["ignore", "ignore", "pipe", "ipc"] })
      : spawn(process.execPath, [SERVER, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  child.on("exit", () => children.delete(child));
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const connection =
    transport === "ipc"
      ? createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child))
      : createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const diagnostics = new Map();
  const waiters = [];
  const listeners = [];
  connection.onNotification("textDocument/publishDiagnostics", (params) => {
    diagnostics.set(params.uri, params);
    for (const listener of listeners) listener(params);
    for (const waiter of [...waiters]) if (waiter.test(params)) waiters.splice(waiters.indexOf(waiter), 1) && waiter.resolve(params);
  });
  connection.listen();
  const initialize = await connection.sendRequest("initialize", { processId: process.pid, rootUri: uriOf(FIXTURES), capabilities: {}, workspaceFolders: null });
  const startupMs = performance.now() - started;
  await connection.sendNotification("initialized", {});
  const versions = new Map();
  const server = {
    child,
    connection,
    initialize,
    startupMs,
    get stderr() {
      return stderr;
    },
    /** Opens a document (the file's text unless `text` is given); resolves with its first diagnostics. */
    open(file, text = readFileSync(file, "utf8"), languageId = file.endsWith(".toml") ? "toml" : "json") {
      const uri = uriOf(file);
      versions.set(uri, 1);
      const published = server.diagnosticsFor(uri, 1);
      void connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
      return published;
    },
    /** Applies incremental edits [{ range, text }]; resolves with the diagnostics of the new version. */
    change(file, changes) {
      const uri = uriOf(file);
      const version = versions.get(uri) + 1;
      versions.set(uri, version);
      const published = server.diagnosticsFor(uri, version);
      void connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: changes });
      return published;
    },
    /**
     * Sends several edits as one write (as fast as a client can: the server reads them all at
     * once); resolves with the diagnostics of the last version. stdio only.
     */
    changeBurst(file, edits) {
      const uri = uriOf(file);
      let version = versions.get(uri);
      const frames = edits.map((changes) =>
        frame({ method: "textDocument/didChange", params: { textDocument: { uri, version: ++version }, contentChanges: changes } }),
      );
      versions.set(uri, version);
      const published = server.diagnosticsFor(uri, version);
      child.stdin.write(frames.join(""));
      return published;
    },
    close(file) {
      void connection.sendNotification("textDocument/didClose", { textDocument: { uri: uriOf(file) } });
    },
    /** The diagnostics of that version; fails after 20 s (a server that never publishes them is broken). */
    diagnosticsFor(uri, version) {
      const published = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} version ${version} after 20 s\n${stderr}`)), 20_000).unref();
        waiters.push({ test: (params) => params.uri === uri && params.version === version, resolve: (params) => (clearTimeout(timer), resolve(params)) });
      });
      // Versions a test does not wait for (superseded edits, documents the server does not own) are not failures.
      published.catch(() => {});
      return published;
    },
    /** Calls `listener` with every diagnostics notification from now on. */
    onDiagnostics: (listener) => listeners.push(listener),
    request: (method, file, extra = {}) => connection.sendRequest(method, { textDocument: { uri: uriOf(file) }, ...extra }),
    async shutdown() {
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
      const code = child.exitCode ?? (await new Promise((resolve) => child.on("exit", resolve)));
      connection.dispose();
      return code;
    },
  };
  return server;
}

/** Line and character of the `occurrence`-th `needle` in `text` (plus `delta` characters). */
export function positionOf(text, needle, { occurrence = 1, delta = 0 } = {}) {
  let offset = -1;
  for (let i = 0; i < occurrence; i++) offset = text.indexOf(needle, offset + 1);
  assert.notEqual(offset, -1, `${needle} not found`);
  offset += delta;
  const before = text.slice(0, offset).split("\n");
  return { line: before.length - 1, character: before.at(-1).length };
}

/**
 * Compares `list` with server/test/golden/<name>.jsonl: one item a line, as JSON, paths under the
 * repository shown as <repo>. UPDATE_GOLDEN=1 rewrites the file; a mismatch writes <name>.jsonl.actual.
 */
export function assertGolden(name, list) {
  const lines = list.map((item) => JSON.stringify(item).replaceAll(uriOf(REPO), "file:///<repo>/").replaceAll(REPO, "<repo>/"));
  const actual = `${lines.join("\n")}\n`;
  const file = path.join(GOLDEN, `${name}.jsonl`);
  if (process.env.UPDATE_GOLDEN || !existsSync(file)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
    if (!process.env.UPDATE_GOLDEN) assert.fail(`wrote the missing golden file ${file}: check it and run again`);
    return;
  }
  const expected = readFileSync(file, "utf8");
  if (actual !== expected) writeFileSync(`${file}.actual`, actual);
  assert.equal(actual, expected, `differs from ${file} (the actual output is in ${file}.actual)`);
}

/** An initialize request as a minimal client sends it. */
export const RAW_INITIALIZE = { id: "initialize", method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } };

/** One message as it goes over stdio: the Content-Length header block and the JSON body. */
export function frame(message) {
  const json = JSON.stringify({ jsonrpc: "2.0", ...message });
  return `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
}

/**
 * A server over stdio driven byte by byte, without a protocol library (tests of malformed input):
 * `write` sends raw text, `next(test)` resolves with the first message from the server that
 * passes `test` (fails after 20 s), `messages` are all those read so far.
 */
export function rawServer() {
  const child = spawn(process.execPath, [SERVER, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  child.on("exit", () => children.delete(child));
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  let pending = Buffer.alloc(0);
  const messages = [];
  const waiters = [];
  child.stdout.on("data", (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (let match; (match = /^Content-Length: (\d+)\r\n\r\n/.exec(pending.toString("latin1"))); ) {
      const end = match[0].length + Number(match[1]);
      if (pending.length < end) break;
      const message = JSON.parse(pending.subarray(match[0].length, end).toString("utf8"));
      pending = pending.subarray(end);
      messages.push(message);
      for (const waiter of [...waiters]) if (waiter.test(message)) waiters.splice(waiters.indexOf(waiter), 1) && waiter.resolve(message);
    }
  });
  return {
    child,
    messages,
    get stderr() {
      return stderr;
    },
    write: (text) => child.stdin.write(text),
    next(test) {
      const found = messages.find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such message after 20 s; got ${JSON.stringify(messages)}\n${stderr}`)), 20_000).unref();
        waiters.push({ test, resolve: (message) => (clearTimeout(timer), resolve(message)) });
      });
    },
  };
}
