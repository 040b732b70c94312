// rt.serve in real rt processes, driven by real HTTP clients: bodies both ways, streaming,
// aborts, errors, the header limit, port selection and every mistake a program or command line
// can make.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { describe, test } from "node:test";
import { FIXTURES, rt, rtLive, tempDir } from "./rt.mjs";
import { freePort } from "../../test/support/servers.mjs";

const DIR = path.join(FIXTURES, "serve");

/** Starts server.ts; resolves with the live process and its base URL. */
async function startServer(t, args = [], env = {}) {
  const live = rtLive(t, [...args, "server.ts"], { cwd: DIR, env: { SERVE_PORT: "0", ...env } });
  const output = await live.waitFor(/listening \d+ .*\n/);
  const [, port, hostname, url] = /listening (\d+) (\S+) (\S+)/.exec(output);
  return { live, port: Number(port), hostname, url, base: `http://127.0.0.1:${port}` };
}

/** A raw HTTP/1.1 exchange: what the server answered, byte for byte (up to the close). */
function rawRequest(port, text) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(text));
    let answer = "";
    socket.setEncoding("utf8").on("data", (chunk) => (answer += chunk));
    socket.on("close", () => resolve(answer)).on("error", reject);
  });
}

describe("rt.serve", () => {
  test("answers with the handler's Response; this and the second argument are the server", async (t) => {
    const { base, hostname, url, port } = await startServer(t);
    assert.equal(hostname, "localhost");
    assert.equal(url, `http://localhost:${port}/`);
    const hello = await fetch(`${base}/there?q=1`);
    assert.equal(hello.status, 200);
    assert.equal(await hello.text(), "hello /there");
    const echo = await fetch(`${base}/echo`, { method: "POST", body: JSON.stringify({ a: 1 }), headers: { "content-type": "application/json" } });
    assert.deepEqual(await echo.json(), { method: "POST", body: '{"a":1}', type: "application/json", same: true });
  });

  test("a handler can answer with fetch()'s Response; instanceof holds for both kinds of object", async (t) => {
    const { base } = await startServer(t);
    assert.equal(await (await fetch(`${base}/proxy`)).text(), "hello /proxied");
    assert.deepEqual(await (await fetch(`${base}/instanceof`)).json(), [true, true, true, true]);
  });

  test("streams a response body: the first chunk arrives before the second exists", async (t) => {
    const { base } = await startServer(t);
    const response = await fetch(`${base}/stream`);
    const reader = response.body.getReader();
    const started = Date.now();
    const first = await reader.read();
    const firstAt = Date.now() - started;
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += Buffer.from(chunk.value).toString();
    const restAt = Date.now() - started;
    assert.equal(Buffer.from(first.value).toString(), "first\n");
    assert.equal(rest, "second\n");
    assert.ok(restAt - firstAt >= 200, `second chunk ${restAt - firstAt} ms after the first`);
  });

  test("reads a streamed request body", async (t) => {
    const { port } = await startServer(t);
    const total = await new Promise((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port, path: "/upload", method: "POST" }, (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve(text));
      });
      request.on("error", reject);
      // Chunked, written over time: 64 chunks of 16 KiB.
      let sent = 0;
      const next = () => {
        if (sent++ === 64) return request.end();
        request.write(Buffer.alloc(16384, 97), () => setImmediate(next));
      };
      next();
    });
    assert.equal(total, String(64 * 16384));
  });

  test("request.signal aborts when the client goes away", async (t) => {
    const { live, port } = await startServer(t);
    const socket = net.connect(port, "127.0.0.1", () => socket.write("GET /hang HTTP/1.1\r\nHost: x\r\n\r\n"));
    await live.waitFor(/hanging\n/);
    socket.destroy();
    await live.waitFor(/aborted: true\n/);
  });

  test("a throwing or rejecting handler: logged, 500; with an error handler, its response", async (t) => {
    const { live, base } = await startServer(t);
    for (const route of ["/throw", "/reject"]) {
      const response = await fetch(`${base}${route}`);
      assert.equal(response.status, 500);
      assert.equal(await response.text(), "Internal Server Error");
    }
    await live.waitFor(/Error: handler failed\n\s+at .*server\.ts:\d+:\d+[\s\S]*Error: handler rejected/);
    assert.doesNotMatch(live.output, /serve\.cjs|@hono/, "the adapter's frames are rt's own: left out");
    const wrong = await fetch(`${base}/not-a-response`);
    assert.equal(wrong.status, 500);
    await live.waitFor(/TypeError: rt\.serve: fetch\(\) must return a Response \(or a promise of one\), got string/);

    const custom = await startServer(t, [], { CUSTOM_ERROR: "1" });
    const answered = await fetch(`${custom.base}/throw`);
    assert.equal(answered.status, 503);
    assert.equal(await answered.text(), "custom: handler failed");
    assert.equal(await (await fetch(`${custom.base}/reject`)).text(), "custom: handler rejected");
  });

  test("a header block over 16384 bytes gets 431; --max-http-header-size changes the limit", async (t) => {
    const { base } = await startServer(t);
    assert.equal((await fetch(base, { headers: { "x-big": "a".repeat(12000) } })).status, 200);
    assert.equal((await fetch(base, { headers: { "x-big": "a".repeat(17000) } })).status, 431);
    const small = await startServer(t, ["--max-http-header-size", "1024"]);
    assert.equal((await fetch(small.base, { headers: { "x-big": "a".repeat(500) } })).status, 200);
    const answer = await rawRequest(small.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(2000)}\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  });

  test("--max-http-header-size is process-wide: node:http's limit too", () => {
    const size = (args) => rt([...args, "-p", "require('node:http').maxHeaderSize"], { cwd: DIR });
    assert.deepEqual(size([]), { code: 0, signal: null, stdout: "16384\n", stderr: "" });
    assert.deepEqual(size(["--max-http-header-size=65536"]), { code: 0, signal: null, stdout: "65536\n", stderr: "" });
  });

  test("stop() closes the listening socket", async (t) => {
    const { live, base, port } = await startServer(t);
    assert.equal(await (await fetch(`${base}/stop`)).text(), "stopping");
    await live.waitFor(/stopped\n/);
    const { code } = await live.exited;
    assert.equal(code, 0); // nothing keeps the program alive
    await assert.rejects(fetch(`http://127.0.0.1:${port}/`));
  });

  test("port: options.port, else --port, else $PORT, else 3000", async () => {
    const [a, b, c] = [await freePort(), await freePort(), await freePort()];
    const port = (args, env = {}) => rt([...args, "port.ts"], { cwd: DIR, env: { PORT: "", ...env } });
    assert.deepEqual(port(["--port", String(a)], { PORT: String(b), OPTION_PORT: String(c) }), { code: 0, signal: null, stdout: `${c}\n`, stderr: "" });
    assert.equal(port(["--port", String(a)], { PORT: String(b) }).stdout, `${a}\n`);
    assert.equal(port([], { PORT: String(b) }).stdout, `${b}\n`);
    const zero = port(["--port", "0"]);
    assert.match(zero.stdout, /^\d+\n$/);
    assert.notEqual(zero.stdout, "0\n");
    // 3000 unless something else on this machine holds it (then the listen error is the answer).
    const fallback = port([]);
    if (fallback.code === 0) assert.equal(fallback.stdout, "3000\n");
    else assert.match(fallback.stderr, /rt\.serve could not listen on 0\.0\.0\.0:3000: the port is already in use/);
  });

  test("rtfig.toml's port is --port's default; the command line wins", async (t) => {
    const [fromFile, fromFlag] = [await freePort(), await freePort()];
    const dir = tempDir(t);
    copyFileSync(path.join(DIR, "port.ts"), path.join(dir, "port.ts"));
    writeFileSync(path.join(dir, "rtfig.toml"), `port = ${fromFile}\n`);
    assert.equal(rt(["port.ts"], { cwd: dir, env: { PORT: "" } }).stdout, `${fromFile}\n`);
    assert.equal(rt(["--port", String(fromFlag), "port.ts"], { cwd: dir, env: { PORT: "" } }).stdout, `${fromFlag}\n`);
  });

  test("the rt namespace loads rt.serve and its adapter only when called", () => {
    const result = rt(["lazy.ts"], { cwd: DIR });
    assert.deepEqual(result, { code: 0, signal: null, stdout: "function 0\ntrue\n", stderr: "" });
  });
});

describe("rt.serve mistakes", () => {
  test("wrong options: a TypeError naming the option", () => {
    const result = rt(["mistakes.ts"], { cwd: DIR });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      [
        'no options: TypeError ERR_INVALID_ARG_TYPE rt.serve(options) needs a fetch(request) function, e.g. rt.serve({ fetch: () => new Response("hi") })',
        'no fetch: TypeError ERR_INVALID_ARG_TYPE rt.serve(options) needs a fetch(request) function, e.g. rt.serve({ fetch: () => new Response("hi") })',
        "bad port: TypeError ERR_INVALID_ARG_VALUE rt.serve: options.port must be a port number from 0 to 65535, got 70000",
        'bad hostname: TypeError ERR_INVALID_ARG_VALUE rt.serve: options.hostname must be a non-empty string, got ""',
        "bad error: TypeError ERR_INVALID_ARG_TYPE rt.serve: options.error must be a function, got number",
        "",
      ].join("\n"),
    );
  });

  test("an invalid $PORT names $PORT", () => {
    const result = rt(["port.ts"], { cwd: DIR, env: { PORT: "http" } });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /TypeError: rt\.serve: \$PORT must be a port number from 0 to 65535, got "http"/);
  });

  test("a port in use: an error that says so", async (t) => {
    const holder = net.createServer().listen(0);
    await new Promise((resolve) => holder.once("listening", resolve));
    t.after(() => holder.close());
    const result = rt(["busy.ts"], { cwd: DIR, env: { BUSY_PORT: String(holder.address().port) } });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      new RegExp(
        `Error: rt\\.serve could not listen on 0\\.0\\.0\\.0:${holder.address().port}: the port is already in use: stop the program using it, or pass another port \\(EADDRINUSE\\)`,
      ),
    );
  });

  test("bad --port and --max-http-header-size values: rt: ..., exit 2", () => {
    for (const [args, message] of [
      [["--port", "http"], 'rt: invalid value "http" for --port: expected a whole number from 0 to 65535\n'],
      [["--port", "65536"], 'rt: invalid value "65536" for --port: expected a whole number from 0 to 65535\n'],
      [["--port=-1"], 'rt: invalid value "-1" for --port: expected a whole number from 0 to 65535\n'],
      [["--max-http-header-size", "0"], 'rt: invalid value "0" for --max-http-header-size: expected a whole number >= 1\n'],
    ]) {
      assert.deepEqual(rt([...args, "port.ts"], { cwd: DIR }), { code: 2, signal: null, stdout: "", stderr: message });
    }
  });
});

/** Starts `source` (an rt.serve program that prints its port) from a temporary directory. */
async function startProgram(t, source, env = {}) {
  const dir = tempDir(t);
  writeFileSync(path.join(dir, "server.ts"), source);
  const live = rtLive(t, ["server.ts"], { cwd: dir, env });
  const [, port] = /^(\d+)\n/.exec(await live.waitFor(/^\d+\n/));
  return { live, port: Number(port) };
}

/** A node:http server answering 200 to whatever reaches its handler. */
async function nodeServer(t, handler = (_request, response) => response.end("node")) {
  const server = http.createServer(handler).listen(0, "127.0.0.1");
  t.after(() => server.close());
  await new Promise((resolve) => server.once("listening", resolve));
  return server.address().port;
}

const statusLine = (answer) => answer.split("\r\n")[0];

describe("rt.serve and hostile or careless clients", () => {
  test("requests without a usable Host (HTTP/1.0 or 0.9 without one, odd values) get node:http's answers, nothing logged", async (t) => {
    const { live, port } = await startProgram(
      t,
      "const server = rt.serve({ port: 0, fetch: (request) => new Response(new URL(request.url).host) });\nconsole.log(server.port);\n",
    );
    const nodePort = await nodeServer(t);
    const requests = [
      "GET / HTTP/1.0\r\n\r\n",
      "GET /\r\n\r\n",
      "GET / HTTP/1.1\r\n\r\n",
      ...["a b", "[::1", "", "a:b:c", "a/b", "x@y", "%41", "h:99999", `${"a".repeat(8000)}`].map(
        (host) => `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ),
    ];
    for (const request of requests) {
      const [ours, node] = [await rawRequest(port, request), await rawRequest(nodePort, request)];
      assert.equal(statusLine(ours), statusLine(node), JSON.stringify(request.slice(0, 40)));
    }
    // The program sees its own address where the client gave none it could use.
    assert.match(await rawRequest(port, "GET / HTTP/1.0\r\n\r\n"), new RegExp(`\r\n\r\nlocalhost:${port}$`));
    assert.match(await rawRequest(port, "GET / HTTP/1.0\r\nHost: a b\r\n\r\n"), new RegExp(`\r\n\r\nlocalhost:${port}$`));
    assert.equal(live.output, `${port}\n`);
  });

  test("maxRequestBodySize (default 128 MiB, as Bun): 413 above it, by Content-Length before fetch runs or while a chunked body streams", async (t) => {
    const program = (limit) =>
      `const server = rt.serve({ port: 0, ${limit} async fetch(request) {
  console.log("fetch ran");
  return new Response(\`got \${(await request.arrayBuffer()).byteLength}\`);
} });
console.log(server.port);
`;
    const small = await startProgram(t, program("maxRequestBodySize: 1000,"));
    const post = (body, headers) => rawRequest(small.port, `POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n\r\n${body}`);
    assert.match(await post("a".repeat(1000), "Content-Length: 1000"), /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\ngot 1000$/);
    assert.match(await post("", "Content-Length: 1001"), /^HTTP\/1\.1 413 Payload Too Large\r\n[\s\S]*Connection: close\r\n/i);
    const chunk = (text) => `${text.length.toString(16)}\r\n${text}\r\n`;
    assert.match(await post(`${chunk("a".repeat(600))}${chunk("a".repeat(400))}0\r\n\r\n`, "Transfer-Encoding: chunked"), /\r\n\r\ngot 1000$/);
    assert.match(
      await post(`${chunk("a".repeat(600))}${chunk("a".repeat(401))}0\r\n\r\n`, "Transfer-Encoding: chunked"),
      /^HTTP\/1\.1 413 Payload Too Large\r\n/,
    );
    // fetch ran for the three bodies it may read (the chunked one over the limit fails while read).
    assert.equal(small.live.output.match(/fetch ran/g).length, 3);

    const byDefault = await startProgram(t, program(""));
    const limit = 128 * 1024 * 1024;
    const at = (length) => rawRequest(byDefault.port, `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`);
    assert.match(await at(limit + 1), /^HTTP\/1\.1 413 /);
    assert.doesNotMatch(byDefault.live.output, /fetch ran|Error/);
  });

  test("a 256 MB body read with arrayBuffer() peaks below node:http reading it into one Buffer (one copy, not three); chunked within 2x", async (t) => {
    const size = 256 * 1024 * 1024;
    const { port } = await startProgram(
      t,
      `const server = rt.serve({ port: 0, maxRequestBodySize: ${2 * size}, async fetch(request) {
  const body = await request.arrayBuffer();
  return new Response(\`\${body.byteLength} \${process.resourceUsage().maxRSS}\`);
} });
console.log(server.port);
`,
    );
    // node:http the usual way, on plain Node: the chunks, then Buffer.concat.
    const dir = tempDir(t);
    writeFileSync(
      path.join(dir, "node-server.mjs"),
      `import http from "node:http";
const server = http.createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  response.end(\`\${Buffer.concat(chunks).length} \${process.resourceUsage().maxRSS}\`);
}).listen(0, "127.0.0.1", () => console.log(server.address().port));
`,
    );
    const nodeProcess = spawn(process.execPath, [path.join(dir, "node-server.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
    t.after(() => nodeProcess.kill());
    const node = { port: Number(await new Promise((resolve) => nodeProcess.stdout.once("data", resolve))) };
    const upload = async (to, chunked) => {
      const chunk = Buffer.alloc(1024 * 1024, 97);
      let sent = 0;
      const body = new ReadableStream({
        pull(controller) {
          if (sent++ === size / chunk.length) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const headers = chunked ? {} : { "content-length": String(size) };
      const response = await fetch(`http://127.0.0.1:${to}/`, { method: "POST", body, duplex: "half", headers });
      const [length, maxRss] = (await response.text()).split(" ").map(Number);
      assert.equal(length, size);
      return maxRss;
    };
    const [ours, theirs] = [await upload(port, false), await upload(node.port, false)];
    // Before: 858 MB against node:http's 597 (chunks, their concatenation, an ArrayBuffer slice).
    assert.ok(ours < theirs, `Content-Length: rt peak RSS ${ours} KiB, node:http ${theirs} KiB`);
    const chunked = await upload(port, true);
    assert.ok(chunked < 2 * theirs, `chunked: rt peak RSS ${chunked} KiB, node:http ${theirs} KiB`);
  });

  test("rt's body readers: text, json, arrayBuffer, bytes, blob; bodyUsed; a second read fails; request.body still streams", async (t) => {
    const { port } = await startProgram(
      t,
      `const server = rt.serve({ port: 0, async fetch(request) {
  const how = new URL(request.url).pathname.slice(1);
  if (how === "stream") {
    let bytes = 0;
    for await (const chunk of request.body) bytes += chunk.byteLength;
    return new Response(String(bytes));
  }
  const before = request.bodyUsed;
  const value = await request[how]();
  const second = await request.text().then(() => "read again", (error) => error.constructor.name);
  const shown = how === "json" ? JSON.stringify(value) : how === "blob" ? \`\${value.type} \${value.size}\` : how === "text" ? value : value.byteLength;
  return new Response(\`\${shown} \${before} \${request.bodyUsed} \${second}\`);
} });
console.log(server.port);
`,
    );
    const post = async (how, body = '\ufeff{"a":1}') =>
      (await fetch(`http://127.0.0.1:${port}/${how}`, { method: "POST", body, headers: { "content-type": "application/json" } })).text();
    assert.equal(await post("text"), '{"a":1} false true TypeError');
    assert.equal(await post("json"), '{"a":1} false true TypeError');
    assert.equal(await post("arrayBuffer"), "10 false true TypeError");
    assert.equal(await post("bytes"), "10 false true TypeError");
    assert.equal(await post("blob"), "application/json 10 false true TypeError");
    assert.equal(await post("stream", "x".repeat(100_000)), "100000");
  });

  test("server.port and server.url hold the bound port as soon as rt.serve returns, for an IP address too", () => {
    const program = (hostname) =>
      `const server = rt.serve({ port: 0, hostname: ${JSON.stringify(hostname)}, fetch: () => new Response("") });
console.log(server.port > 0, server.url.port === String(server.port) && server.port > 0);
server.stop();`;
    assert.deepEqual(rt(["-e", program("127.0.0.1")]), { code: 0, signal: null, stdout: "true true\n", stderr: "" });
    assert.deepEqual(rt(["-e", program("::1")]), { code: 0, signal: null, stdout: "true true\n", stderr: "" });
    // A name is resolved first (its port is 0 until then); stop() before that still ends it.
    assert.deepEqual(rt(["-e", program("localhost")]), { code: 0, signal: null, stdout: "false false\n", stderr: "" });
  });
});
