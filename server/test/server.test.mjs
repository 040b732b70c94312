// The server as a program: its transports (stdio, Node IPC), its refusal to run without one,
// the documents it leaves alone, cancelled requests, and a very large package.json.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { FIXTURES, frame, killServers, positionOf, RAW_INITIALIZE, rawServer, REPO, SERVER, startServer, uriOf } from "./lsp.mjs";

after(killServers);

/** A package.json of `count` scripts, one a line, each calling the next one with rt run. */
function bigPackageJson(count) {
  const scripts = Array.from({ length: count }, (_, i) => `    "s${i}": "rt run s${(i + 1) % count} && tsc -p src/main.ts --flag-${i}"`);
  return `{\n  "name": "big",\n  "scripts": {\n${scripts.join(",\n")}\n  }\n}\n`;
}

test("over stdio: initialize answers with the capabilities and the server's name", async () => {
  const server = await startServer();
  assert.deepEqual(server.initialize, {
    serverInfo: { name: "rt-language-server", version: "0.1.0" },
    capabilities: {
      textDocumentSync: { openClose: true, change: 2 },
      completionProvider: { triggerCharacters: [" ", "-", "=", "[", "."] },
      hoverProvider: true,
      codeLensProvider: { resolveProvider: false },
      documentLinkProvider: { resolveProvider: false },
    },
  });
  assert.equal(await server.shutdown(), 0);
});

test("over Node IPC (how the VS Code extension starts it): the same server", async () => {
  const server = await startServer({ transport: "ipc" });
  assert.equal(server.initialize.serverInfo.name, "rt-language-server");
  const { diagnostics } = await server.open(path.join(FIXTURES, "monorepo", "packages", "b", "package.json"));
  assert.equal(diagnostics.length, 1);
  assert.equal(await server.shutdown(), 0);
});

test("without a transport flag: a one-line usage error, exit 2", () => {
  const result = spawnSync(process.execPath, [SERVER], { encoding: "utf8" });
  assert.deepEqual(
    [result.status, result.stdout, result.stderr],
    [2, "", "rt-language-server: give the transport: --stdio, --node-ipc, --socket=<port> or --pipe=<name>\n"],
  );
});

test("required as a module (an extension resolving its path), it starts nothing", () => {
  const result = spawnSync(process.execPath, ["-e", 'require("rt-language-server"); console.log(require.resolve("rt-language-server"))'], {
    encoding: "utf8",
    cwd: REPO,
  });
  assert.deepEqual([result.status, result.stdout, result.stderr], [0, `${SERVER}\n`, ""]);
});

test("an entry of scripts whose value is not a string gets no lens (rt leaves it out)", async () => {
  const server = await startServer();
  const file = path.join(FIXTURES, "app", "package.json");
  const { diagnostics } = await server.open(file, '{ "scripts": { "a": "rt run b", "b": 1, "c": null } }');
  const lenses = await server.request("textDocument/codeLens", file);
  assert.deepEqual(
    lenses.map((lens) => lens.command.arguments[0].script),
    ["a", "a"],
  );
  assert.deepEqual(
    diagnostics.map((diagnostic) => diagnostic.message),
    ['Script not found "b" (did you mean "a"?)'],
    "as rt run b would say",
  );
  assert.equal(await server.shutdown(), 0);
});

test("documents it does not own get no diagnostics and no answers", async () => {
  const server = await startServer();
  const other = path.join(FIXTURES, "app", "tsconfig.json");
  const notRtfig = path.join(FIXTURES, "config", "other.toml");
  const installed = path.join(FIXTURES, "app", "node_modules", "dep", "package.json");
  let unowned = 0;
  server.onDiagnostics((params) => {
    if (params.uri === uriOf(other) || params.uri === uriOf(notRtfig) || params.uri === uriOf(installed)) unowned++;
  });
  void server.open(other, '{ "scripts": { "x": "rt run nothing" } }');
  void server.open(installed, '{ "scripts": { "x": "rt run nothing" } }');
  void server.open(notRtfig, "colour = 1\n");
  // Notifications are handled in order: once this one's diagnostics arrive, the others had their turn.
  await server.open(path.join(FIXTURES, "app", "package.json"));
  assert.equal(unowned, 0);
  assert.equal(await server.request("textDocument/hover", other, { position: { line: 0, character: 22 } }), null);
  assert.equal(await server.request("textDocument/completion", notRtfig, { position: { line: 0, character: 0 } }), null);
  assert.equal(await server.request("textDocument/codeLens", other), null);
  assert.equal(await server.request("textDocument/codeLens", installed), null, "a package under node_modules");
  assert.equal(await server.shutdown(), 0);
});

test("a request cancelled before it is handled ends with RequestCancelled", async () => {
  const server = await startServer();
  const file = path.join(FIXTURES, "app", "package.json");
  await server.open(file);
  // The request and its cancellation in one write, as a client that cancels at once sends
  // them: the server reads both before it handles either, so the request is never worked on.
  let output = "";
  server.child.stdout.on("data", (chunk) => (output += chunk));
  server.child.stdin.write(
    frame({ id: "cancelled-lens", method: "textDocument/codeLens", params: { textDocument: { uri: uriOf(file) } } }) +
      frame({ method: "$/cancelRequest", params: { id: "cancelled-lens" } }),
  );
  const lenses = await server.request("textDocument/codeLens", file);
  assert.ok(lenses.length > 0, "the next request is answered");
  const answer = /\{[^\n]*"id":"cancelled-lens"[^\n]*?\}\}/.exec(output.replace(/Content-Length: \d+\r\n\r\n/g, "\n"))?.[0];
  assert.equal(JSON.parse(answer).error.code, -32800, answer);
  assert.equal(await server.shutdown(), 0);
});

test("typing a package.json and an rtfig.toml from nothing: diagnostics for each version, the server never fails", async () => {
  const server = await startServer();
  for (const file of [path.join(FIXTURES, "app", "package.json"), path.join(FIXTURES, "config", "rtfig.toml")]) {
    const text = readFileSync(file, "utf8");
    const whole = await server.open(file, text);
    server.close(file);
    await server.open(file, "");
    // Five characters per edit, at the end of what is typed so far (line and character from the text).
    let typed = "";
    let last;
    for (let i = 0; i < text.length; i += 5) {
      const end = positionOf(`${typed}\u0000`, "\u0000");
      typed = text.slice(0, i + 5);
      last = await server.change(file, [{ range: { start: end, end }, text: text.slice(i, i + 5) }]);
      assert.ok(Array.isArray(last.diagnostics));
    }
    assert.deepEqual(last.diagnostics, whole.diagnostics, "once typed in full, the same diagnostics as the file opened whole");
    server.close(file);
  }
  assert.equal(server.stderr, "");
  assert.equal(await server.shutdown(), 0);
});

test("a 10,000-line package.json stays responsive; a burst of edits costs one run on the latest text", async () => {
  const server = await startServer();
  const file = path.join(FIXTURES, "app", "package.json");
  const text = bigPackageJson(10_000);
  assert.ok(text.split("\n").length >= 10_000);
  let started = performance.now();
  const { diagnostics } = await server.open(file, text);
  const openMs = performance.now() - started;
  assert.deepEqual(diagnostics, []);
  assert.ok(openMs < 5_000, `first diagnostics after ${openMs.toFixed(0)} ms`);

  // Ten keystrokes in one write: diagnostics run once the edits settle, on the last version.
  let published = 0;
  server.onDiagnostics(() => published++);
  const position = positionOf(text, "rt run s3 ", { delta: 7 });
  const burst = server.changeBurst(
    file,
    Array.from({ length: 10 }, () => [{ range: { start: position, end: position }, text: "x" }]),
  );
  started = performance.now();
  const last = await burst;
  const editMs = performance.now() - started;
  assert.deepEqual(
    last.diagnostics.map((diagnostic) => diagnostic.message),
    ['Script not found "xxxxxxxxxxs3"'],
  );
  // One run; a loaded machine may pause the server between two edits for longer than the settle
  // delay, so what is asserted is that the burst did not cost a run per edit.
  assert.ok(published < 10, `${published} diagnostics runs for the ten edits`);
  started = performance.now();
  const hover = await server.request("textDocument/hover", file, { position: { line: 9_000, character: 6 } });
  const hoverMs = performance.now() - started;
  assert.match(hover.contents.value, /^\*\*rt run s8997\*\*/);
  // Generous bounds (CI machines are loaded) that still catch work growing with the square of the
  // document (seconds at this size); bench/language-server.mjs measures the real figures.
  assert.ok(editMs < 3_000 && hoverMs < 2_000, `diagnostics ${editMs.toFixed(0)} ms after the edits, hover in ${hoverMs.toFixed(0)} ms`);
  assert.equal(await server.shutdown(), 0);
});

// Malformed input, byte by byte as a broken or hostile client sends it: each gets one line saying
// what was wrong (a window/logMessage, or an error answer), and the server goes on serving.
const APP_URI = uriOf(path.join(FIXTURES, "app", "package.json"));
const answerTo = (id) => (message) => message.id === id;
const logged = (text) => (message) => message.method === "window/logMessage" && message.params.message.includes(text);

test("requests before initialize are refused with ServerNotInitialized (-32002), notifications dropped", async () => {
  const server = rawServer();
  server.write(
    frame({ id: "early-hover", method: "textDocument/hover", params: { textDocument: { uri: APP_URI }, position: { line: 0, character: 0 } } }) +
      frame({ id: "early-other", method: "workspace/symbol", params: { query: "" } }) +
      frame({ method: "textDocument/didOpen", params: { textDocument: { uri: APP_URI, languageId: "json", version: 1, text: "{}" } } }),
  );
  assert.deepEqual((await server.next(answerTo("early-hover"))).error, {
    code: -32002,
    message: "textDocument/hover before initialize: send initialize first",
  });
  assert.equal((await server.next(answerTo("early-other"))).error.code, -32002);
  server.write(frame(RAW_INITIALIZE) + frame({ id: "lens", method: "textDocument/codeLens", params: { textDocument: { uri: APP_URI } } }));
  assert.ok((await server.next(answerTo(RAW_INITIALIZE.id))).result.capabilities);
  assert.equal((await server.next(answerTo("lens"))).result, null, "the didOpen sent before initialize was dropped");
  assert.ok(!server.messages.some((message) => message.method === "textDocument/publishDiagnostics"));
  server.write(frame({ id: "unknown", method: "workspace/symbol", params: { query: "" } }));
  assert.equal((await server.next(answerTo("unknown"))).error.code, -32601, "after initialize, an unknown method is MethodNotFound");
  assert.equal(server.stderr, "");
});

test("didOpen with a number as text: ignored with one logged line, the server keeps serving", async () => {
  const server = rawServer();
  server.write(
    frame(RAW_INITIALIZE) +
      frame({ method: "textDocument/didOpen", params: { textDocument: { uri: APP_URI, languageId: "json", version: 1, text: 42 } } }) +
      frame({ id: "bad-hover", method: "textDocument/hover", params: { textDocument: { uri: APP_URI } } }) +
      frame({
        method: "textDocument/didOpen",
        params: { textDocument: { uri: APP_URI, languageId: "json", version: 1, text: '{ "scripts": { "a": "rt run b" } }' } },
      }),
  );
  const log = await server.next(logged("didOpen"));
  assert.deepEqual(log.params, { type: 1, message: "rt-language-server: ignored textDocument/didOpen: params.textDocument.text must be a string, not 42" });
  assert.deepEqual((await server.next(answerTo("bad-hover"))).error, {
    code: -32602,
    message: "textDocument/hover: params.position must be { line, character } of whole numbers",
  });
  const published = await server.next((message) => message.method === "textDocument/publishDiagnostics");
  assert.deepEqual(
    published.params.diagnostics.map((diagnostic) => diagnostic.message),
    ['Script not found "b" (did you mean "a"?)'],
    "the well-formed didOpen after it is served",
  );
  assert.ok(!server.messages.some((message) => /\n\s+at /.test(JSON.stringify(message))), "no stack anywhere");
  assert.equal(server.stderr, "");
});

for (const [what, header] of [
  ["a non-numeric Content-Length", "Content-Length: abc\r\n\r\n"],
  ["a negative Content-Length", "Content-Length: -5\r\n\r\n"],
  ["a huge Content-Length", "Content-Length: 99999999999999\r\n\r\n"],
  ["a header block without Content-Length", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"],
]) {
  test(`${what}: the frame is reported and skipped, the next request is answered`, async () => {
    const server = rawServer();
    server.write(frame(RAW_INITIALIZE));
    await server.next(answerTo(RAW_INITIALIZE.id));
    // The bad frame's body is a request that must not be run; the valid one after it must be.
    server.write(`${header}{"jsonrpc":"2.0","id":"swallowed","method":"shutdown"}`);
    server.write(frame({ id: "after", method: "textDocument/codeLens", params: { textDocument: { uri: APP_URI } } }));
    assert.deepEqual(await server.next(answerTo("after")), { jsonrpc: "2.0", id: "after", result: null });
    const log = server.messages.find(logged("ignored"));
    assert.match(log.params.message, /^rt-language-server: ignored .*Content-Length.*; reading on from the next Content-Length header$/);
    assert.ok(!server.messages.some(answerTo("swallowed")));
    assert.equal(server.stderr, "");
  });
}
