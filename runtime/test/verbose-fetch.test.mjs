// RT_CONFIG_VERBOSE_FETCH against real local HTTP and HTTPS servers: exact line shapes for
// curl/true/false, fetch and http.request, redirects, refused and aborted requests, concurrency,
// and the logged curl command run by real curl.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { FIXTURES, rtAsync, skipUnlessCI } from "./rt.mjs";

const DIR = path.join(FIXTURES, "diagnostics");
const TLS = path.join(DIR, "tls");

function handler(request, response) {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    if (request.url === "/hang") return; // never answers: for aborts
    if (request.url === "/redirect") {
      response.writeHead(302, { Location: "/plain", "Content-Length": "0" });
      return response.end();
    }
    const text = JSON.stringify({ method: request.method, url: request.url, got: body });
    response.writeHead(200, { "Content-Type": "application/json", "X-Url": request.url, "Content-Length": String(Buffer.byteLength(text)) });
    response.end(text);
  });
}

const servers = {};
before(async () => {
  servers.http = http.createServer(handler);
  servers.https = https.createServer({ key: readFileSync(path.join(TLS, "key.pem")), cert: readFileSync(path.join(TLS, "cert.pem")) }, handler);
  servers.closed = http.createServer();
  await Promise.all(Object.values(servers).map((server) => new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))));
  servers.refusedPort = servers.closed.address().port;
  await new Promise((resolve) => servers.closed.close(resolve));
});
after(() => {
  for (const server of [servers.http, servers.https]) server.closeAllConnections?.(), server.close();
});

const base = (kind = "http") => `${kind}://127.0.0.1:${servers[kind].address().port}`;

/** Runs a fixture with verbose fetch set; servers in this process answer while it runs. */
async function run(file, mode, { kind = "http", env = {} } = {}) {
  const result = await rtAsync([file], {
    cwd: DIR,
    env: {
      RT_CONFIG_VERBOSE_FETCH: mode,
      BASE: base(kind),
      REFUSED_URL: `http://127.0.0.1:${servers.refusedPort}/refused`,
      NODE_EXTRA_CA_CERTS: path.join(TLS, "cert.pem"),
      ...env,
    },
  });
  return {
    ...result,
    lines: result.stderr
      .replace(/Date: .*/g, "Date: <date>")
      .replaceAll(base(kind), "<base>")
      .split("\n")
      .slice(0, -1),
  };
}

const requestHeadersOfFetch = (extra = []) => [
  "[fetch] > host: <host>",
  "[fetch] > connection: keep-alive",
  ...extra,
  "[fetch] > accept: */*",
  "[fetch] > accept-language: *",
  "[fetch] > sec-fetch-mode: cors",
  "[fetch] > user-agent: node",
  "[fetch] > accept-encoding: gzip, deflate",
];
const withHost = (lines, kind = "http") => lines.map((line) => line.replace("<host>", `127.0.0.1:${servers[kind].address().port}`));
const response = (text, url) => [
  "[fetch] < 200 OK",
  "[fetch] < Content-Type: application/json",
  `[fetch] < X-Url: ${url}`,
  `[fetch] < Content-Length: ${Buffer.byteLength(text)}`,
  "[fetch] < Date: <date>",
  "[fetch] < Connection: keep-alive",
  "[fetch] < Keep-Alive: timeout=5",
];

describe("fetch()", () => {
  const postBody = JSON.stringify({ hello: "world", quote: "it's" });
  const postAnswer = JSON.stringify({ method: "POST", url: "/api/items?x=1", got: postBody });
  const postRequest = () =>
    withHost([
      "[fetch] > HTTP/1.1 POST <base>/api/items?x=1",
      ...requestHeadersOfFetch(["[fetch] > Content-Type: application/json", "[fetch] > X-Custom-Header: it's here"]),
      `[fetch] > content-length: ${Buffer.byteLength(postBody)}`,
      "[fetch]",
      ...response(postAnswer, "/api/items?x=1"),
    ]);

  test("true: request line, headers as sent, a [fetch] line, status line, response headers", async () => {
    const result = await run("fetch-post.ts", "true");
    assert.equal(result.stdout, `200 ${postAnswer}\n`);
    assert.deepEqual(result.lines, postRequest());
    assert.deepEqual((await run("fetch-post.ts", "1")).lines, result.lines, "1 means true");
  });

  test("curl: a runnable curl command first, then the same lines; real curl gets the same answer", async (t) => {
    const result = await run("fetch-post.ts", "curl");
    const [command, ...rest] = result.lines;
    assert.deepEqual(rest, postRequest());
    const port = servers.http.address().port;
    assert.equal(
      command,
      `[fetch] $ curl --http1.1 '<base>/api/items?x=1' -X POST -H 'host: 127.0.0.1:${port}' -H 'connection: keep-alive' -H 'Content-Type: application/json' -H 'X-Custom-Header: it'\\''s here' -H 'accept: */*' -H 'accept-language: *' -H 'sec-fetch-mode: cors' -H 'user-agent: node' -H 'accept-encoding: gzip, deflate' -H 'content-length: ${Buffer.byteLength(postBody)}' --compressed --data-raw '${postBody.replaceAll("'", "'\\''")}'`,
    );
    if (spawnSync("curl", ["--version"]).error) return skipUnlessCI(t, "curl is not installed");
    const shell = command.slice("[fetch] $ ".length).replace("<base>", base());
    const curl = await new Promise((resolve) => {
      const child = spawn("bash", ["-c", `${shell} --silent`]);
      let out = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      child.on("close", (code) => resolve({ code, out }));
    });
    assert.deepEqual(curl, { code: 0, out: postAnswer });
  });

  test("false, 0 and unset log nothing", async () => {
    for (const mode of ["false", "0", undefined]) {
      const result = await run("fetch-post.ts", mode);
      assert.deepEqual([result.stderr, result.code], ["", 0], `mode ${mode}`);
    }
  });

  test("an unknown value: one warning line naming the valid values, nothing logged", async () => {
    const result = await run("fetch-post.ts", "verbose");
    assert.equal(result.stderr, 'rt: warning: RT_CONFIG_VERBOSE_FETCH="verbose" is not one of curl, true, 1, false, 0; request logging is off\n');
    assert.equal(result.code, 0);
  });

  test("a redirect: each hop is logged", async () => {
    const result = await run("fetch-redirect.ts", "true");
    const answer = JSON.stringify({ method: "GET", url: "/plain", got: "" });
    assert.equal(result.stdout, `200 ${base()}/plain ${answer}\n`);
    assert.deepEqual(result.lines, [
      ...withHost(["[fetch] > HTTP/1.1 GET <base>/redirect", ...requestHeadersOfFetch(), "[fetch]"]),
      "[fetch] < 302 Found",
      "[fetch] < Location: /plain",
      "[fetch] < Content-Length: 0",
      "[fetch] < Date: <date>",
      "[fetch] < Connection: keep-alive",
      "[fetch] < Keep-Alive: timeout=5",
      ...withHost(["[fetch] > HTTP/1.1 GET <base>/plain", ...requestHeadersOfFetch(), "[fetch]", ...response(answer, "/plain")]),
    ]);
  });

  test("a refused connection is logged with its error", async () => {
    const result = await run("fetch-refused.ts", "true");
    assert.equal(result.stdout, "failed ECONNREFUSED\n");
    const port = servers.refusedPort;
    assert.deepEqual(result.stderr.split("\n").slice(0, -1), [
      `[fetch] > HTTP/1.1 GET http://127.0.0.1:${port}/refused`,
      "[fetch] > accept: */*",
      "[fetch] > accept-language: *",
      "[fetch] > sec-fetch-mode: cors",
      "[fetch] > user-agent: node",
      "[fetch] > accept-encoding: gzip, deflate",
      "[fetch]",
      `[fetch] < error: connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
  });

  test("an aborted request is logged with its error", async () => {
    const result = await run("fetch-abort.ts", "true");
    assert.equal(result.stdout, "AbortError\n");
    assert.deepEqual(result.lines.slice(-2), ["[fetch]", "[fetch] < error: This operation was aborted"]);
  });

  test("20 concurrent requests: each exchange is written whole", async () => {
    const result = await run("fetch-concurrent.ts", "true");
    assert.equal(result.stdout, `${Array(20).fill(200).join(",")}\n`);
    const blocks = result.stderr.split(/(?=\[fetch\] > HTTP\/1\.1 )/).filter(Boolean);
    assert.equal(blocks.length, 20);
    for (const block of blocks) {
      const path = /^\[fetch\] > HTTP\/1\.1 GET \S+?(\/n\/\d+)\n/.exec(block)?.[1];
      assert.ok(path, block);
      assert.ok(block.includes(`\n[fetch] < X-Url: ${path}\n`), `the response in the block is the one for ${path}:\n${block}`);
      assert.equal(block.split("\n").filter((line) => line.startsWith("[fetch] > HTTP/1.1")).length, 1);
    }
  });

  test("HTTPS (a self-signed certificate trusted through NODE_EXTRA_CA_CERTS)", async () => {
    const result = await run("fetch-post.ts", "true", { kind: "https" });
    assert.equal(result.stdout, `200 ${postAnswer}\n`);
    assert.equal(result.lines[0], "[fetch] > HTTP/1.1 POST <base>/api/items?x=1");
    assert.equal(result.lines[1], `[fetch] > host: 127.0.0.1:${servers.https.address().port}`);
    assert.ok(result.lines.includes("[fetch] < 200 OK"));
  });
});

describe("the http and https client modules", () => {
  const answer = JSON.stringify({ method: "GET", url: "/module", got: "" });
  for (const kind of ["http", "https"]) {
    test(`${kind}.request: the same line shapes, headers as sent`, async () => {
      const result = await run("http-request.ts", "curl", { kind });
      assert.equal(result.stdout, `200 ${answer}\n`);
      const port = servers[kind].address().port;
      assert.deepEqual(result.lines, [
        `[fetch] $ curl --http1.1 '<base>/module' -H 'X-From: http-module' -H 'Host: 127.0.0.1:${port}' -H 'Connection: keep-alive'`,
        "[fetch] > HTTP/1.1 GET <base>/module",
        "[fetch] > X-From: http-module",
        `[fetch] > Host: 127.0.0.1:${port}`,
        "[fetch] > Connection: keep-alive",
        "[fetch]",
        ...response(answer, "/module"),
      ]);
    });
  }

  test("a refused http.request is logged with its error", async () => {
    const result = await run("http-refused.ts", "true");
    assert.equal(result.stdout, "failed ECONNREFUSED\n");
    assert.equal(result.lines.at(-1), `[fetch] < error: connect ECONNREFUSED 127.0.0.1:${servers.refusedPort}`);
  });
});
