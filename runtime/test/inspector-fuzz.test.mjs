// A hostile or careless client against a running `rt --inspect` program: 1,000 connections with
// random and invalid Host and Origin headers, paths, methods, HTTP versions, upgrade headers and,
// on real WebSocket sessions, random and malformed frames. The program keeps running, every
// connection gets an answer or is closed, and a real client can still debug the program.
// The seed is printed; RT_FUZZ_SEED=<n> replays a run.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { test } from "node:test";
import { CdpClient, disconnectAtEnd, startInspected } from "./cdp.mjs";
import { tempDir } from "./rt.mjs";

const CONNECTIONS = 1000;
const AT_ONCE = 20;
/** How long a connection may stay silent before the client half-closes it, then until it must be closed. */
const QUIET_MS = 500;
const CLOSE_MS = 10_000;

/** mulberry32: small, seeded, good enough to pick cases. */
function random(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  const bytes = (n) => Buffer.from(Array.from({ length: n }, () => int(256)));
  const text = (n) => Array.from({ length: n }, () => String.fromCharCode(32 + int(95))).join("");
  return { next, int, pick, bytes, text };
}

/** The pieces of a request: each list mixes valid values (to get past one check and hit the next) with invalid ones. */
function requestCases(r, port, id) {
  const hosts = [
    `127.0.0.1:${port}`,
    `localhost:${port}`,
    `[::1]:${port}`,
    undefined,
    "localhost:99999",
    "[",
    "x y",
    "a%zz",
    "localhost%00.evil.example",
    "evil.example",
    "",
    "[::1",
    "::1",
    "127.0.0.1:",
    `${"a".repeat(300)}.localhost`,
    "ünïcode.localhost",
    () => r.text(1 + r.int(40)),
  ];
  const origins = [
    undefined,
    undefined,
    "null",
    `http://127.0.0.1:${port}`,
    "http://localhost:9222",
    "devtools://devtools",
    "http://evil.example",
    "http://[",
    "%",
    "javascript:alert(1)",
    "http://127.0.0.1.evil.example",
    () => r.text(1 + r.int(40)),
  ];
  const paths = [
    "/",
    "/json",
    "/json/list",
    "/json/version",
    "/json/protocol",
    `/json/activate/${id}`,
    "/json/activate/x",
    "/json/new?about:blank",
    "/json/close/x",
    `/${id}`,
    `/${id}?x=1`,
    `/${id}/`,
    "/app.js",
    "/style.css",
    "/rt.json",
    "/../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "*",
    "http://evil/x",
    "",
    "//x",
    `/${"a".repeat(20_000)}`,
    () => `/${r.text(r.int(60))}`,
    () => r.text(1 + r.int(30)),
  ];
  const methods = ["GET", "GET", "GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD", "CONNECT", "BREW", "G ET", "", () => r.text(1 + r.int(10))];
  const versions = ["HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/9", "", () => r.text(r.int(12))];
  const upgrades = [
    [],
    ["Connection: Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="],
    ["Connection: Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 8", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="],
    ["Connection: Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: short"],
    ["Connection: Upgrade", "Upgrade: websocket"],
    ["Upgrade: websocket"],
    ["Connection: Upgrade", "Upgrade: h2c"],
    ["Content-Length: 5"],
    ["Content-Length: -1"],
    ["Transfer-Encoding: chunked"],
    () => [`${r.text(1 + r.int(10))}: ${r.text(r.int(20))}`],
  ];
  const value = (choice) => (typeof choice === "function" ? choice() : choice);
  const lines = [`${value(r.pick(methods))} ${value(r.pick(paths))} ${value(r.pick(versions))}`];
  const host = value(r.pick(hosts));
  if (host !== undefined) lines.push(`Host: ${host}`);
  const origin = value(r.pick(origins));
  if (origin !== undefined) lines.push(`Origin: ${origin}`);
  lines.push(...value(r.pick(upgrades)));
  const request = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
  // Now and then plain garbage, or a request cut short.
  const shape = r.int(10);
  if (shape === 0) return r.bytes(1 + r.int(200));
  if (shape === 1) return request.subarray(0, r.int(request.length));
  return request;
}

/** A WebSocket frame as a client sends it (masked unless told not to). */
function frame(opcode, payload, { fin = true, mask = true, rsv = 0, claimedLength } = {}) {
  const length = claimedLength ?? payload.length;
  const header = [((fin ? 0x80 : 0) | (rsv << 4) | opcode) & 0xff];
  const maskBit = mask ? 0x80 : 0;
  if (length < 126) header.push(maskBit | length);
  else if (length < 65536) header.push(maskBit | 126, length >> 8, length & 0xff);
  else {
    header.push(maskBit | 127);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    header.push(...big);
  }
  const key = Buffer.from([1, 2, 3, 4]);
  const body = mask ? Buffer.from(payload.map((byte, i) => byte ^ key[i % 4])) : payload;
  return Buffer.concat([Buffer.from(header), mask ? key : Buffer.alloc(0), body]);
}

/** Frames for an open session: valid protocol messages (they get answers) and broken ones. */
function frameCases(r) {
  const methods = [
    "Runtime.evaluate",
    "Runtime.enable",
    "Debugger.enable",
    "Profiler.enable",
    "NodeRuntime.notifyWhenWaitingForDisconnect",
    "Runtime.runIfWaitingForDebugger",
    "Nope.nothing",
    "",
    "__proto__",
    "constructor",
  ];
  const ids = [1, 2, -1, 1.5, 2 ** 53, "1", null, undefined, {}];
  const params = [undefined, { expression: "1 + 1" }, { expression: "globalThis.x = 1" }, "text", [], null, 42, { expression: { nested: true } }];
  const message = () => JSON.stringify({ id: r.pick(ids), method: r.pick(methods), params: r.pick(params) });
  const text = (content) => frame(0x1, Buffer.from(content));
  const cases = [
    () => text(message()),
    () => text(message()),
    () => text("{ not json"),
    () => text(JSON.stringify(r.text(r.int(50)))),
    () => text("null"),
    () => frame(0x1, Buffer.from(message()), { mask: false }),
    () => frame(0x2, r.bytes(r.int(100))),
    () => frame(0x9, Buffer.from("ping")),
    () => frame(0x8, Buffer.from([0x03, 0xe7])),
    () => frame(0x8, Buffer.from([0x00])),
    () => frame(0x0, Buffer.from("continuation without a start")),
    () => frame(0x1, Buffer.from("fragment"), { fin: false }),
    () => frame(0x1, Buffer.from("{}"), { rsv: 1 + r.int(7) }),
    () => frame(0x3 + r.int(5), r.bytes(r.int(20))),
    () => frame(0x1, Buffer.from("x"), { claimedLength: 2 ** 40 }),
    () => frame(0x1, Buffer.from("short"), { claimedLength: 100 }),
    () => frame(0x1, Buffer.from([0xff, 0xfe, 0xfd])),
    () => r.bytes(1 + r.int(64)),
  ];
  return Buffer.concat(Array.from({ length: 1 + r.int(4) }, () => r.pick(cases)()));
}

/**
 * Sends `data` on a fresh connection (after a real WebSocket handshake when `upgradeFirst`);
 * resolves with how the server dealt with it: "answered" (some bytes came back) and/or "closed".
 * The client half-closes after QUIET_MS of silence; a connection still open CLOSE_MS later fails.
 */
function exchange(port, id, data, upgradeFirst) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let answered = false;
    let handshake = upgradeFirst ? "" : undefined;
    const timers = [];
    const finish = (outcome) => {
      for (const timer of timers) clearTimeout(timer);
      socket.destroy();
      outcome instanceof Error ? reject(outcome) : resolve(outcome);
    };
    const send = () => {
      socket.write(data, () => {});
      timers.push(setTimeout(() => socket.end(), QUIET_MS));
      timers.push(
        setTimeout(
          () => finish(new Error(`connection neither answered nor closed within ${CLOSE_MS} ms: ${JSON.stringify(data.toString("latin1").slice(0, 200))}`)),
          CLOSE_MS,
        ),
      );
    };
    socket.on("connect", () => {
      if (!upgradeFirst) return send();
      const key = createHash("sha1").update(String(Math.random())).digest("base64").slice(0, 22) + "==";
      socket.write(
        `GET /${id} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${key}\r\n\r\n`,
      );
    });
    socket.on("data", (chunk) => {
      if (handshake !== undefined) {
        handshake += chunk.toString("latin1");
        if (!handshake.includes("\r\n\r\n")) return;
        if (!handshake.startsWith("HTTP/1.1 101 ")) return finish(new Error(`the upgrade was refused: ${handshake.split("\r\n")[0]}`));
        handshake = undefined;
        return send();
      }
      answered = true;
    });
    socket.on("error", () => {});
    socket.on("close", () => finish(answered ? "answered" : "closed"));
  });
}

test(`inspector fuzz: ${CONNECTIONS} hostile connections; the program keeps running and every connection is answered or closed`, async (t) => {
  const seed = Number(process.env.RT_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  t.diagnostic(`seed ${seed} (RT_FUZZ_SEED=${seed} replays this run)`);
  const r = random(seed);
  const dir = tempDir(t);
  writeFileSync(
    path.join(dir, "server.ts"),
    'const state: { ticks: number } = ((globalThis as any).state = { ticks: 0 });\nsetInterval(() => state.ticks++, 10);\nprocess.on("SIGTERM", () => process.exit(0));\n',
  );
  const run = startInspected(t, ["--inspect=127.0.0.1:0", "server.ts"], { cwd: dir });
  const url = new URL(await run.banner);
  const port = Number(url.port);
  const id = url.pathname.slice(1);

  const outcomes = { answered: 0, closed: 0 };
  for (let done = 0; done < CONNECTIONS; done += AT_ONCE) {
    const batch = Array.from({ length: Math.min(AT_ONCE, CONNECTIONS - done) }, () =>
      r.next() < 0.25 ? exchange(port, id, frameCases(r), true) : exchange(port, id, requestCases(r, port, id), false),
    );
    for (const outcome of await Promise.all(batch)) outcomes[outcome]++;
    assert.equal(run.child.exitCode, null, `the program ended during the fuzz:\n${run.output.stderr}`);
  }
  t.diagnostic(`${outcomes.answered} answered, ${outcomes.closed} closed without an answer`);
  assert.equal(outcomes.answered + outcomes.closed, CONNECTIONS);
  assert.doesNotMatch(run.output.stderr, /internal error|Error:/, "nothing went wrong inside the inspector");

  // Still a working debugger, on a program that kept running.
  const client = await CdpClient.connect(url.href);
  const ticks = async () => (await client.send("Runtime.evaluate", { expression: "state.ticks" })).result.value;
  const before = await ticks();
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.ok((await ticks()) > before, "the program's timer still runs");
  run.child.kill("SIGTERM");
  assert.equal((await disconnectAtEnd(run, client)).code, 0);
});
