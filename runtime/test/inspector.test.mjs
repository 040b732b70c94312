// --inspect / --inspect-wait / --inspect-brk with real rt processes driven over a real
// WebSocket: value forms, banner, wait and break semantics, breakpoints and stepping in
// TypeScript at original lines, console replay, disconnects, protocol errors, Host/Origin checks.
import { TraceMap, generatedPositionFor, originalPositionFor } from "@jridgewell/trace-mapping";
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, test } from "node:test";
import { CdpClient, WAITING_FOR_DISCONNECT, disconnectAtEnd, startInspected } from "./cdp.mjs";
import { FIXTURES, REPO, rt, tempDir } from "./rt.mjs";
import { freePort } from "../../test/support/servers.mjs";

const DIR = path.join(FIXTURES, "inspector");
const APP_URL = pathToFileURL(path.join(DIR, "app.ts")).href;

function get(port, pathname, headers = {}) {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port, path: pathname, headers }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode, body, type: response.headers["content-type"], headers: response.headers }));
    });
    request.on("error", reject);
  });
}

/** Tries a WebSocket upgrade with the given headers; resolves with the HTTP status line. */
function upgrade(port, pathname, headers) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      const lines = [
        `GET ${pathname} HTTP/1.1`,
        "Connection: Upgrade",
        "Upgrade: websocket",
        "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
      ];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    });
    socket.once("data", (chunk) => {
      resolve(String(chunk).split("\r\n")[0]);
      socket.destroy();
    });
    socket.on("error", reject);
  });
}

const RT_FILES = [pathToFileURL(path.join(REPO, "runtime", "dist")).href, pathToFileURL(path.join(REPO, "runtime", "bin")).href];
/** The URLs of a stop's frames (a frame names its script by id: the client's scriptParsed events say which). */
const frameUrls = (client, paused) => {
  const urls = new Map(client.events.filter((event) => event.method === "Debugger.scriptParsed").map((event) => [event.params.scriptId, event.params.url]));
  return paused.callFrames.map((frame) => urls.get(frame.location.scriptId) ?? "?");
};
const rtFrames = (client, paused) => frameUrls(client, paused).filter((url) => RT_FILES.some((prefix) => url.startsWith(prefix)));
const mapOf = (scriptParsed) => new TraceMap(Buffer.from(scriptParsed.sourceMapURL.split(",")[1], "base64").toString());
const originalOf = (map, location) => originalPositionFor(map, { line: location.lineNumber + 1, column: location.columnNumber }).line;

/** `rt --inspect-brk ...args` with a client, stopped at the entry's first statement: its stop and the script at `url`. */
async function atEntryBreak(t, args, options, url) {
  const run = startInspected(t, ["--inspect-brk", ...args], options);
  const client = await CdpClient.connect(await run.banner);
  await client.send("Debugger.enable");
  const scriptPromise = client.event("Debugger.scriptParsed", (params) => params.url === url);
  await client.send("Runtime.runIfWaitingForDebugger");
  const first = await client.event("Debugger.paused");
  return { run, client, first, script: await scriptPromise };
}

describe("the server and its banner", () => {
  test("--inspect: a free port, an unguessable id, the banner on stderr whole and in order before any output", async (t) => {
    const run = startInspected(t, ["--inspect", "app.ts"], { cwd: DIR });
    const url = await run.banner;
    const { code, stdout, stderr } = await run.exited;
    assert.equal(code, 0);
    assert.equal(stdout, "before\ntotal 5\n");
    const match = /^ws:\/\/127\.0\.0\.1:(\d+)\/([0-9a-f-]{36})$/.exec(url);
    assert.ok(match, url);
    const [, port, id] = match;
    const address = `127.0.0.1:${port}`;
    const line = "--------------------- rt inspector ---------------------";
    assert.equal(
      stderr,
      `${line}\nListening:\n  ws://${address}/${id}\nInspect in browser:\n  http://${address}/#${address}/${id}\n` +
        `DevTools:\n  devtools://devtools/bundled/js_app.html?experiments=true&v8only=true&ws=${address}/${id}\n${line}\n`,
    );
  });

  test("--inspect=<port> and --inspect=<host>:<port>/<prefix>", async (t) => {
    const port = await freePort();
    const byPort = startInspected(t, [`--inspect=${port}`, "app.ts"], { cwd: DIR });
    assert.match(await byPort.banner, new RegExp(`^ws://127\\.0\\.0\\.1:${port}/[0-9a-f-]{36}$`));
    await byPort.exited;
    const other = await freePort();
    const full = startInspected(t, [`--inspect=localhost:${other}/my-session`, "app.ts"], { cwd: DIR });
    assert.equal(await full.banner, `ws://localhost:${other}/my-session`);
    await full.exited;
  });

  test("a non-loopback host warns in the banner", async (t) => {
    const run = startInspected(t, ["--inspect=0.0.0.0:0/open", "app.ts"], { cwd: DIR });
    await run.banner;
    assert.match((await run.exited).stderr, /^Warning: listening on 0\.0\.0\.0: anyone who can reach this port can run code in this process\.$/m);
  });

  test("bad values and a port in use: one line naming the flag, exit 2", async (t) => {
    const invalid = rt(["--inspect=70000", "app.ts"], { cwd: DIR });
    assert.deepEqual([invalid.code, invalid.stdout], [2, ""]);
    assert.match(invalid.stderr, /^rt: invalid value "70000" for --inspect: port 70000 is outside 0-65535; expected \[\[host:\]port\[\/prefix\]\]/);
    const unparsable = rt(["--inspect-wait=a:b:c", "app.ts"], { cwd: DIR });
    assert.deepEqual([unparsable.code, unparsable.stderr.split("\n").length], [2, 2]);
    assert.match(unparsable.stderr, /^rt: invalid value "a:b:c" for --inspect-wait: not a host and port/);
    const busy = net.createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => busy.once("listening", resolve));
    const port = busy.address().port;
    const result = await startInspected(t, [`--inspect=${port}`, "app.ts"], { cwd: DIR }).exited;
    busy.close();
    assert.deepEqual(
      [result.code, result.stdout, result.stderr],
      [2, "", `rt: --inspect: 127.0.0.1:${port} is already in use; pick another port or leave it out to use a free one\n`],
    );
  });

  test("/json/version and /json/list describe the target; the WebSocket path without Upgrade is 426", async (t) => {
    const run = startInspected(t, ["--inspect-wait=127.0.0.1:0/discover", "app.ts"], { cwd: DIR });
    const url = await run.banner;
    const port = Number(new URL(url).port);
    const version = await get(port, "/json/version");
    assert.equal(version.status, 200);
    assert.match(JSON.parse(version.body).Browser, /^rt\//);
    for (const pathname of ["/json", "/json/list"]) {
      const [target] = JSON.parse((await get(port, pathname)).body);
      assert.deepEqual(
        { type: target.type, url: target.url, ws: target.webSocketDebuggerUrl, title: target.title },
        { type: "node", url: APP_URL, ws: `ws://127.0.0.1:${port}/discover`, title: "app.ts" },
      );
      assert.equal(target.devtoolsFrontendUrl, `devtools://devtools/bundled/js_app.html?experiments=true&v8only=true&ws=127.0.0.1:${port}/discover`);
    }
    assert.equal((await get(port, "/discover")).status, 426);
    assert.equal((await get(port, "/nothing-here")).status, 404);
    run.child.kill();
    await run.exited;
  });

  test("DNS rebinding and cross-origin pages are refused; rt's own page and DevTools are allowed", async (t) => {
    const run = startInspected(t, ["--inspect-wait=127.0.0.1:0/guarded", "app.ts"], { cwd: DIR });
    const port = Number(new URL(await run.banner).port);
    const host = `127.0.0.1:${port}`;
    assert.equal((await get(port, "/json/list", { Host: "evil.example:80" })).status, 403);
    assert.equal((await get(port, "/json/list", { Host: `localhost:${port}` })).status, 200);
    assert.equal(await upgrade(port, "/guarded", { Host: "attacker.example" }), "HTTP/1.1 403 Forbidden");
    assert.equal(await upgrade(port, "/guarded", { Host: host, Origin: "http://evil.example" }), "HTTP/1.1 403 Forbidden");
    assert.equal(await upgrade(port, "/wrong-id", { Host: host }), "HTTP/1.1 404 Not Found");
    assert.equal(await upgrade(port, "/guarded", { Host: host, Origin: `http://${host}` }), "HTTP/1.1 101 Switching Protocols");
    assert.equal(await upgrade(port, "/guarded", { Host: host, Origin: "devtools://devtools" }), "HTTP/1.1 101 Switching Protocols");
    // Chrome's DevTools frontend as Chromium serves it, and other loopback pages: allowed.
    for (const origin of ["http://127.0.0.1:9222", "http://localhost:9222", "http://[::1]:9222", "https://localhost"]) {
      assert.equal(await upgrade(port, "/guarded", { Host: host, Origin: origin }), "HTTP/1.1 101 Switching Protocols", origin);
    }
    for (const origin of ["null", "http://127.0.0.1.evil.example", "file://", "chrome-extension://abc", "http://10.0.0.1:9222"]) {
      assert.equal(await upgrade(port, "/guarded", { Host: host, Origin: origin }), "HTTP/1.1 403 Forbidden", origin);
    }
    run.child.kill();
    await run.exited;
  });

  test("--inspect=0.0.0.0: the page's own origin may connect, whatever address it was reached at; other origins may not", async (t) => {
    const run = startInspected(t, ["--inspect-wait=0.0.0.0:0/same", "app.ts"], { cwd: DIR });
    const port = Number(new URL(await run.banner).port);
    // As a browser on another machine reaches it: Host is this machine's address on the network.
    const host = `10.1.2.3:${port}`;
    assert.equal(await upgrade(port, "/same", { Host: host, Origin: `http://${host}` }), "HTTP/1.1 101 Switching Protocols");
    for (const origin of [`http://10.1.2.4:${port}`, "http://10.1.2.3", `http://10.1.2.3:${port + 1}`, `https://${host}`, `http://${host}.evil.example`]) {
      assert.equal(await upgrade(port, "/same", { Host: host, Origin: origin }), "HTTP/1.1 403 Forbidden", origin);
    }
    run.child.kill();
    await run.exited;
  });

  test("the page may not be framed, connects to its own origin only, and nothing tells a client without a session where rt is installed", async (t) => {
    const run = startInspected(t, ["--inspect-wait=127.0.0.1:0/framing", "app.ts"], { cwd: DIR });
    const url = await run.banner;
    const port = Number(new URL(url).port);
    for (const pathname of ["/", "/app.js", "/json/list"]) {
      const { headers } = await get(port, pathname);
      assert.equal(headers["x-frame-options"], "DENY", pathname);
      assert.equal(headers["content-security-policy"], "frame-ancestors 'none'; connect-src 'self'", pathname);
    }
    const installed = path.join(REPO, "runtime");
    assert.equal((await get(port, "/rt.json")).status, 404);
    for (const pathname of ["/", "/json/version", "/json/list", "/json/protocol"]) {
      assert.ok(!(await get(port, pathname)).body.includes(installed), `${pathname} names ${installed}`);
    }
    // A session gets the prefixes of rt's own files, which the page leaves out of its list.
    const client = await CdpClient.connect(url);
    const { prefixes } = await client.send("Rt.getInternalUrls");
    assert.deepEqual(prefixes, [`${pathToFileURL(path.join(installed, "dist")).href}/`, `${pathToFileURL(path.join(installed, "bin")).href}/`]);
    run.child.kill();
    await run.exited;
  });

  test("every loopback spelling (127.1, 127.0.0.2, localhost, [::1]) listens without the warning", async (t) => {
    for (const host of ["127.1", "127.0.0.2", "localhost", "[::1]"]) {
      const run = startInspected(t, [`--inspect=${host}:0/quiet`, "app.ts"], { cwd: DIR });
      await run.banner;
      const { stderr } = await run.exited;
      assert.doesNotMatch(stderr, /Warning/, host);
    }
  });

  test("an unparsable Host is answered 400, over HTTP and on the WebSocket upgrade, and the program runs on", async (t) => {
    const run = startInspected(t, ["--inspect-wait=127.0.0.1:0/hosts", "app.ts"], { cwd: DIR });
    const port = Number(new URL(await run.banner).port);
    for (const host of ["localhost:99999", "[", "x y", "a%zz", "localhost%00.evil.example", "localhost:", "[::1", "::1"]) {
      assert.equal((await get(port, "/json/list", { Host: host })).status, 400, host);
      assert.equal(await upgrade(port, "/hosts", { Host: host }), "HTTP/1.1 400 Bad Request", host);
    }
    assert.equal((await get(port, "/json/list", { Host: `[::1]:${port}` })).status, 200);
    const client = await CdpClient.connect(await run.banner);
    await client.send("Runtime.runIfWaitingForDebugger");
    assert.deepEqual(await disconnectAtEnd(run, client).then((r) => [r.code, r.stdout]), [0, "before\ntotal 5\n"]);
  });

  test("/json/protocol is V8's protocol descriptor; /json/activate answers for the target; /json/new and /json/close do not apply", async (t) => {
    const run = startInspected(t, ["--inspect-wait=127.0.0.1:0/described", "app.ts"], { cwd: DIR });
    const port = Number(new URL(await run.banner).port);
    const protocol = await get(port, "/json/protocol");
    assert.equal(protocol.status, 200);
    const domains = JSON.parse(protocol.body).domains.map((domain) => domain.domain);
    for (const domain of ["Debugger", "Runtime", "Profiler", "HeapProfiler"]) assert.ok(domains.includes(domain), domain);
    assert.deepEqual([(await get(port, "/json/activate/described")).status, (await get(port, "/json/activate/other")).status], [200, 404]);
    assert.equal((await get(port, "/json/new?about:blank")).status, 405);
    assert.equal((await get(port, "/json/close/described")).status, 405);
    run.child.kill();
    await run.exited;
  });
});

describe("the program's end with a client attached (as Node)", () => {
  test("rt prints Node's line, tells the client, keeps serving it, and exits with the program's code once it disconnects", async (t) => {
    const run = startInspected(t, ["--inspect-wait", "ending.ts"], { cwd: DIR });
    const url = await run.banner;
    const client = await CdpClient.connect(url);
    await client.send("Runtime.enable");
    const created = await client.event("Runtime.executionContextCreated");
    await client.send("Runtime.runIfWaitingForDebugger");
    const destroyed = await client.event("Runtime.executionContextDestroyed");
    assert.equal(destroyed.executionContextId, created.context.id);
    assert.equal((await client.event("Runtime.consoleAPICalled")).args[0].value, "last words", "the last console message came before the end");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(run.child.exitCode, null, "still running while the client is attached");
    assert.equal(run.output.stderr.split(WAITING_FOR_DISCONNECT).length, 2, "Node's line, once");
    assert.ok(run.output.stderr.endsWith(WAITING_FOR_DISCONNECT));
    // Unlike Node, the context still answers: the client can read the exit code.
    assert.equal((await client.send("Runtime.evaluate", { expression: "process.exitCode" })).result.value, 3);
    // No new clients, as in Node: the port is closed.
    await assert.rejects(CdpClient.connect(url));
    client.close();
    const closeCode = await client.closed();
    assert.notEqual(closeCode, 1006, "closed with a close frame");
    const { code, stdout } = await run.exited;
    assert.deepEqual([code, stdout], [3, "last words\n"]);
  });

  test("a client that asked for NodeRuntime.waitingForDisconnect gets it; an uncaught error waits too; a signal still ends the wait", async (t) => {
    const dir = tempDir(t);
    writeFileSync(path.join(dir, "throws.ts"), 'process.on("SIGTERM", () => {});\nthrow new Error("boom");\n');
    const run = startInspected(t, ["--inspect-wait", "throws.ts"], { cwd: dir });
    const client = await CdpClient.connect(await run.banner);
    await client.send("NodeRuntime.notifyWhenWaitingForDisconnect", { enabled: true });
    await client.send("Runtime.enable");
    await client.send("Runtime.runIfWaitingForDebugger");
    await client.event("NodeRuntime.waitingForDisconnect");
    assert.equal(client.events.filter((event) => event.method === "Runtime.executionContextDestroyed").length, 0);
    assert.equal((await client.send("Runtime.evaluate", { expression: "process.exitCode" })).result.value, 1);
    run.child.kill("SIGTERM");
    assert.equal((await run.exited).signal, "SIGTERM", "the program's SIGTERM handler no longer holds it");
  });

  test("after --inspect-brk's stop no later script stops the client (the entry break's instrumentation breakpoint is gone)", async (t) => {
    const run = startInspected(t, ["--inspect-brk", "app.ts"], { cwd: DIR });
    const client = await CdpClient.connect(await run.banner);
    await client.send("Runtime.enable");
    await client.send("Debugger.enable");
    await client.send("Runtime.runIfWaitingForDebugger");
    await client.event("Debugger.paused");
    await client.send("Debugger.resume");
    await client.event("Runtime.executionContextDestroyed");
    // An evaluation compiles a new script: it runs, with no stop before it.
    assert.equal((await client.send("Runtime.evaluate", { expression: "process.exitCode ?? 0" })).result.value, 0);
    assert.equal(client.events.filter((event) => event.method === "Debugger.paused").length, 0);
    assert.equal((await disconnectAtEnd(run, client)).code, 0);
  });

  test("every reply is delivered: commands sent as the program ends all get their answers", async (t) => {
    const run = startInspected(t, ["--inspect-wait", "plain.js"], { cwd: DIR });
    const client = await CdpClient.connect(await run.banner);
    const answers = [client.raw("Runtime.runIfWaitingForDebugger")];
    for (let i = 0; i < 200; i++) answers.push(client.raw("Runtime.evaluate", { expression: `${i} * 2`, returnByValue: true }));
    const results = await Promise.all(answers);
    assert.deepEqual(
      results.slice(1).map((answer) => answer.result.result.value),
      Array.from({ length: 200 }, (_, i) => i * 2),
    );
    assert.equal((await disconnectAtEnd(run, client)).code, 0);
  });
});

describe("wait and break", () => {
  test("--inspect-wait runs nothing before a client attaches and sends Runtime.runIfWaitingForDebugger", async (t) => {
    const run = startInspected(t, ["--inspect-wait", "app.ts"], { cwd: DIR });
    const client = await CdpClient.connect(await run.banner);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(run.output.stdout, "", "no program output before the client says go");
    await client.send("Runtime.enable");
    await client.send("Runtime.runIfWaitingForDebugger");
    const { code, stdout } = await disconnectAtEnd(run, client);
    assert.deepEqual([code, stdout], [0, "before\ntotal 5\n"]);
  });

  test("a breakpoint set by URL before the program starts is hit (plain JavaScript: same lines)", async (t) => {
    const run = startInspected(t, ["--inspect-wait", "plain.js"], { cwd: DIR });
    const client = await CdpClient.connect(await run.banner);
    await client.send("Debugger.enable");
    await client.send("Debugger.setBreakpointByUrl", { url: pathToFileURL(path.join(DIR, "plain.js")).href, lineNumber: 3 });
    await client.send("Runtime.runIfWaitingForDebugger");
    const paused = await client.event("Debugger.paused");
    assert.equal(paused.callFrames[0].location.lineNumber, 3);
    assert.equal(paused.callFrames[0].functionName, "greet");
    const message = await client.send("Debugger.evaluateOnCallFrame", { callFrameId: paused.callFrames[0].callFrameId, expression: "message" });
    assert.equal(message.result.value, "hello plain");
    await client.send("Debugger.resume");
    assert.equal((await disconnectAtEnd(run, client)).stdout, "hello plain\n");
  });

  test("--inspect-brk stops on the entry's first line, in the user's file; breakpoints, evaluate and steps work at original .ts lines", async (t) => {
    const { run, client, first, script } = await atEntryBreak(t, ["app.ts"], { cwd: DIR }, APP_URL);
    assert.equal(first.callFrames[0].location.scriptId, script.scriptId, "paused in app.ts, not in rt");
    assert.deepEqual(rtFrames(client, first), [], "rt's own frames are off the stack");
    assert.equal(run.output.stdout, "", "nothing ran yet");
    const map = mapOf(script);
    assert.equal(originalOf(map, first.callFrames[0].location), 12, 'the first statement: console.log("before")');

    // A breakpoint on original line 8 (`const sum: number = a + b;`), placed through the map.
    const target = generatedPositionFor(map, { source: map.sources[0], line: 8, column: 2 });
    await client.send("Debugger.setBreakpointByUrl", { url: APP_URL, lineNumber: target.line - 1, columnNumber: target.column });
    await client.send("Debugger.resume");
    const hit = await client.event("Debugger.paused");
    const frame = hit.callFrames[0];
    assert.deepEqual([frame.functionName, originalOf(map, frame.location)], ["add", 8]);
    const a = await client.send("Debugger.evaluateOnCallFrame", { callFrameId: frame.callFrameId, expression: "a * 10 + b" });
    assert.equal(a.result.value, 23);

    await client.send("Debugger.stepOver");
    const stepped = await client.event("Debugger.paused");
    assert.equal(originalOf(map, stepped.callFrames[0].location), 9, "step over lands on `return sum;`");
    const sum = await client.send("Debugger.evaluateOnCallFrame", { callFrameId: stepped.callFrames[0].callFrameId, expression: "sum" });
    assert.equal(sum.result.value, 5);
    await client.send("Debugger.stepOut");
    const out = await client.event("Debugger.paused");
    assert.equal(originalOf(map, out.callFrames[0].location), 14, "step out returns to the caller, at its next statement");
    await client.send("Debugger.resume");
    assert.deepEqual(await disconnectAtEnd(run, client).then((r) => [r.code, r.stdout]), [0, "before\ntotal 5\n"]);
  });

  test("step into enters the called function", async (t) => {
    const run = startInspected(t, ["--inspect-brk", "plain.js"], { cwd: DIR });
    const client = await CdpClient.connect(await run.banner);
    await client.send("Debugger.enable");
    await client.send("Runtime.runIfWaitingForDebugger");
    const first = await client.event("Debugger.paused");
    assert.equal(first.callFrames[0].location.lineNumber, 5, "console.log(greet(...)) is the first statement");
    await client.send("Debugger.stepInto");
    const inside = await client.event("Debugger.paused");
    assert.deepEqual([inside.callFrames[0].functionName, inside.callFrames[0].location.lineNumber], ["greet", 2]);
    await client.send("Debugger.resume");
    await disconnectAtEnd(run, client);
  });

  test("--inspect-brk on a CommonJS entry stops on its first statement, inside Node's wrapper, and steps through the file", async (t) => {
    const run = startInspected(t, ["--inspect-brk", "plain.cjs"], { cwd: DIR });
    const client = await CdpClient.connect(await run.banner);
    await client.send("Debugger.enable");
    await client.send("Runtime.runIfWaitingForDebugger");
    const first = await client.event("Debugger.paused");
    // rt's loader (which requires the entry) is off the stack; Node's own frames stay, as under node.
    assert.deepEqual(rtFrames(client, first), []);
    assert.ok(frameUrls(client, first).includes("node:internal/modules/cjs/loader"), frameUrls(client, first).join("\n"));
    const lines = [first.callFrames[0].location.lineNumber];
    for (const _ of [1, 2]) {
      await client.send("Debugger.stepOver");
      lines.push((await client.event("Debugger.paused")).callFrames[0].location.lineNumber);
    }
    assert.deepEqual(lines, [0, 1, 2], "const first, const second, console.log: the file's own lines (0-based)");
    assert.equal(run.output.stdout, "", "console.log has not run yet");
    await client.send("Debugger.resume");
    assert.deepEqual(await disconnectAtEnd(run, client).then((r) => [r.code, r.stdout]), [0, "one two\n"]);
  });

  test("a breakpoint on a CommonJS file's first line stops on its first statement (not on Node's wrapper), with the breakpoint's id", async (t) => {
    const run = startInspected(t, ["--inspect-wait", "plain.cjs"], { cwd: DIR });
    const client = await CdpClient.connect(await run.banner);
    await client.send("Debugger.enable");
    const url = pathToFileURL(path.join(DIR, "plain.cjs")).href;
    const { breakpointId } = await client.send("Debugger.setBreakpointByUrl", { url, lineNumber: 0, columnNumber: 0 });
    await client.send("Runtime.runIfWaitingForDebugger");
    const hit = await client.event("Debugger.paused");
    const { lineNumber, columnNumber } = hit.callFrames[0].location;
    assert.equal(lineNumber, 0);
    assert.ok(columnNumber > 0, `inside the wrapper (column ${columnNumber}), not its statement at column 0`);
    assert.deepEqual(hit.hitBreakpoints, [breakpointId]);
    await client.send("Debugger.stepOver");
    assert.equal((await client.event("Debugger.paused")).callFrames[0].location.lineNumber, 1, "a step stays in the file");
    await client.send("Debugger.resume");
    assert.deepEqual(await disconnectAtEnd(run, client).then((r) => [r.code, r.stdout]), [0, "one two\n"]);
  });

  test("--inspect-brk on a CommonJS .ts entry that starts with a function declaration stops on the first statement, not inside the function", async (t) => {
    const run = startInspected(t, ["--inspect-brk", "greet.ts"], { cwd: path.join(FIXTURES, "debug", "commonjs") });
    const client = await CdpClient.connect(await run.banner);
    await client.send("Debugger.enable");
    await client.send("Runtime.runIfWaitingForDebugger");
    const first = await client.event("Debugger.paused");
    assert.equal(first.callFrames.filter((frame) => frame.functionName === "greet").length, 0, "greet has not been called");
    const { location } = first.callFrames[0];
    const { scriptSource } = await client.send("Debugger.getScriptSource", { scriptId: location.scriptId });
    assert.match(scriptSource.split("\n")[location.lineNumber], /const who = "world"/, "the first statement that runs");
    assert.equal(run.output.stdout, "");
    await client.send("Debugger.resume");
    assert.deepEqual(await disconnectAtEnd(run, client).then((r) => [r.code, r.stdout]), [0, "hello world\n"]);
  });

  test("rt --inspect-wait run <script>: the debugger flag reaches the rt program the script starts (RT_INSPECT), not the runner", async (t) => {
    const run = startInspected(t, ["--inspect-wait=127.0.0.1:0/from-script", "run", "dev"], { cwd: path.join(FIXTURES, "inspector-script") });
    const url = await run.banner;
    assert.match(url, /^ws:\/\/127\.0\.0\.1:\d+\/from-script$/);
    assert.equal(run.output.stdout, "", "the program waits for a client");
    const client = await CdpClient.connect(url);
    await client.send("Runtime.runIfWaitingForDebugger");
    const { code, stdout, stderr } = await disconnectAtEnd(run, client);
    assert.deepEqual([code, stdout], [0, "app ran\n"]);
    assert.equal(stderr.split("Listening:").length, 2, "one banner: the program's");
    assert.match(stderr, /^\$ rt app\.ts\n-{5,} rt inspector/);
  });

  test("a client that disconnects while the program is paused lets it continue", async (t) => {
    const run = startInspected(t, ["--inspect-brk", "app.ts"], { cwd: DIR });
    const client = await CdpClient.connect(await run.banner);
    await client.send("Debugger.enable");
    await client.send("Runtime.runIfWaitingForDebugger");
    await client.event("Debugger.paused");
    client.close();
    const { code, stdout } = await run.exited;
    assert.deepEqual([code, stdout], [0, "before\ntotal 5\n"]);
  });
});

describe("the protocol", () => {
  test("console messages logged before a client attached reach it; several clients in turn", async (t) => {
    const run = startInspected(t, ["--inspect", "early.ts"], { cwd: DIR });
    const url = await run.banner;
    while (!run.output.stdout.includes("early message")) await new Promise((resolve) => setTimeout(resolve, 20));
    for (let i = 0; i < 2; i++) {
      const client = await CdpClient.connect(url);
      await client.send("Runtime.enable");
      const logged = await client.event("Runtime.consoleAPICalled", (params) => params.args[0]?.value === "early message");
      assert.equal(logged.type, "log");
      const result = await client.send("Runtime.evaluate", { expression: "6 * 7" });
      assert.equal(result.result.value, 42);
      client.close();
    }
    run.child.kill("SIGTERM");
    assert.equal((await run.exited).code, 0);
  });

  test("malformed and unknown messages get protocol errors, never a crash", async (t) => {
    const run = startInspected(t, ["--inspect", "early.ts"], { cwd: DIR });
    const client = await CdpClient.connect(await run.banner);
    const parse = new Promise((resolve) => client.waiters.push((message) => message.id === null && (resolve(message), true)));
    client.socket.send("{ not json");
    assert.deepEqual((await parse).error.code, -32700);
    const invalid = new Promise((resolve) => client.waiters.push((message) => message.id === null && (resolve(message), true)));
    client.socket.send(JSON.stringify({ method: "Runtime.evaluate" }));
    assert.deepEqual((await invalid).error.code, -32600);
    const unknown = await client.raw("Nope.nothing", {});
    assert.equal(unknown.error.code, -32601);
    assert.match(unknown.error.message, /Nope\.nothing/);
    const still = await client.send("Runtime.evaluate", { expression: "1 + 1" });
    assert.equal(still.result.value, 2);
    client.close();
    run.child.kill("SIGTERM");
    await run.exited;
  });

  test("transpiled files appear with their file: URL and an inline source map of the original TypeScript", async (t) => {
    const { run, client, script } = await atEntryBreak(t, ["app.ts"], { cwd: DIR }, APP_URL);
    const map = mapOf(script);
    assert.match(map.sourcesContent[0], /^interface Pair \{$/m);
    client.close();
    await run.exited;
  });
});

describe("a large file, whose source map is a file in rt's transpiler cache", () => {
  test("clients get the map inline, naming the file, whether transpiled now or from the cache", async (t) => {
    const dir = tempDir(t);
    // A space and a quote in the cache's path: the map's name in the code is percent-encoded.
    const env = { RT_TRANSPILER_CACHE_PATH: path.join(dir, "user's cache") };
    const filler = Array.from({ length: 1500 }, (_, i) => `const value${i}: Readonly<Record<string, number>> = { n: ${i} };`);
    writeFileSync(path.join(dir, "large.ts"), `${filler.join("\n")}\nconsole.log(value1499.n);\n`);
    const url = pathToFileURL(path.join(dir, "large.ts")).href;
    for (const run of ["transpiled now", "from the cache"]) {
      const { run: inspected, client, first, script } = await atEntryBreak(t, ["large.ts"], { cwd: dir, env }, url);
      const { scriptSource } = await client.send("Debugger.getScriptSource", { scriptId: script.scriptId });
      const named = /\n\/\/# sourceMappingURL=(\S+)\n/.exec(scriptSource)?.[1];
      assert.match(named ?? "(none)", /^\/\S+\.map$/, `${run}: V8 holds the map's path, not the map`);
      const map = mapOf(script);
      assert.deepEqual(map.sources, [url], run);
      assert.match(map.sourcesContent[0], /^const value0: Readonly<Record<string, number>> = \{ n: 0 \};$/m, run);
      assert.equal(originalOf(map, first.callFrames[0].location), 1, `${run}: the first statement`);
      await client.send("Debugger.resume");
      assert.equal((await disconnectAtEnd(inspected, client)).stdout, "1499\n", run);
    }
  });
});

describe("with --watch", () => {
  test("a restarted program keeps the debugger's address, so clients reconnect to the same URL", async (t) => {
    const dir = tempDir(t);
    cpSync(path.join(DIR, "early.ts"), path.join(dir, "early.ts"));
    cpSync(path.join(DIR, "package.json"), path.join(dir, "package.json"));
    const run = startInspected(t, ["--watch", "--no-clear-screen", "--inspect", "early.ts"], { cwd: dir });
    const url = await run.banner;
    const first = await CdpClient.connect(url);
    await first.send("Runtime.enable");
    await first.event("Runtime.consoleAPICalled", (params) => params.args[0]?.value === "early message");
    writeFileSync(path.join(dir, "early.ts"), readFileSync(path.join(dir, "early.ts"), "utf8").replace("early message", "edited message"));
    while (!run.output.stdout.includes("edited message")) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(run.output.stderr.match(/ws:\/\/\S+/g).filter((found) => found === url).length, 2, "both banners name the same URL");
    const second = await CdpClient.connect(url);
    await second.send("Runtime.enable");
    await second.event("Runtime.consoleAPICalled", (params) => params.args[0]?.value === "edited message");
    second.close();
  });
});
