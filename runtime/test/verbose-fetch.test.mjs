// RT_CONFIG_VERBOSE_FETCH against real local HTTP and HTTPS servers: exact line shapes for
// curl/true/false, fetch and http.request, redirects, refused and aborted requests, concurrency,
// the logged curl command run by real curl, and credentials: a canary in every place a request
// or its answer carries one never reaches the output, in either mode.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { FIXTURES, outputOf, rtAsync, skipUnlessCI, tempDir } from "./rt.mjs";

const DIR = path.join(FIXTURES, "diagnostics");
const TLS = path.join(DIR, "tls");
/** The credential of test/fixtures/diagnostics/credentials.ts: it must never be printed. */
const CANARY = "rt-canary-7f3a9c";

/** What the server received on /echo, in order: method, url, headers, body. */
const received = [];
function handler(request, response) {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    if (request.url === "/hang") return; // never answers: for aborts
    if (request.url === "/redirect" || request.url === "/redirect-with-token") {
      response.writeHead(302, { Location: request.url === "/redirect" ? "/plain" : `/echo?access_token=${CANARY}`, "Content-Length": "0" });
      return response.end();
    }
    if (request.url.startsWith("/echo") || request.url.startsWith("http:")) {
      received.push({ method: request.method, url: request.url, headers: request.headers, body });
      response.writeHead(200, { "Set-Cookie": `sid=${CANARY}; Path=/; HttpOnly`, "WWW-Authenticate": 'Bearer realm="rt"', "Content-Length": "2" });
      return response.end("ok");
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

/** Runs a command line with sh, without blocking: the servers answer from this process. */
function shell(command, options = {}) {
  return outputOf(spawn("sh", ["-c", command], options));
}

const base = (kind = "http") => `${kind}://127.0.0.1:${servers[kind].address().port}`;

/** Runs a fixture with verbose fetch set; servers in this process answer while it runs. */
async function run(file, mode, { kind = "http", env = {}, cwd = DIR } = {}) {
  const result = await rtAsync([file], {
    cwd,
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
      `[fetch] $ curl --http1.1 --globoff '<base>/api/items?x=1' -X 'POST' -H 'host: 127.0.0.1:${port}' -H 'connection: keep-alive' -H 'Content-Type: application/json' -H 'X-Custom-Header: it'\\''s here' -H 'accept: */*' -H 'accept-language: *' -H 'sec-fetch-mode: cors' -H 'user-agent: node' -H 'accept-encoding: gzip, deflate' -H 'content-length: ${Buffer.byteLength(postBody)}' --compressed --data-raw '${postBody.replaceAll("'", "'\\''")}'`,
    );
    if (spawnSync("curl", ["--version"]).error) return skipUnlessCI(t, "curl is not installed");
    const curl = await shell(`${command.slice("[fetch] $ ".length).replace("<base>", base())} --silent`);
    assert.deepEqual([curl.code, curl.stdout], [0, postAnswer], curl.stderr);
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
        `[fetch] $ curl --http1.1 --globoff '<base>/module' -H 'X-From: http-module' -H 'Host: 127.0.0.1:${port}' -H 'Connection: keep-alive'`,
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

describe("credentials never reach the log", () => {
  const canaryForms = [CANARY, ...["user", "proxy-user"].map((user) => Buffer.from(`${user}:${CANARY}`).toString("base64"))];
  const assertNoCanary = (result, what) => {
    for (const form of canaryForms) assert.ok(!`${result.stdout}${result.stderr}`.includes(form), `${what}: ${form} appears in the output:\n${result.stderr}`);
  };
  const query = [
    "token",
    "access_token",
    "refresh_token",
    "id_token",
    "api_key",
    "apikey",
    "key",
    "secret",
    "client_secret",
    "password",
    "sig",
    "signature",
    "X-Amz-Credential",
    "X-Amz-Signature",
  ];
  const redactedQuery = `page=2&${query.map((name) => `${name}=[REDACTED]`).join("&")}`;

  for (const mode of ["true", "curl"]) {
    test(`${mode}: headers, query, bodies, Set-Cookie, Location, http.get auth and userinfo are redacted; the rest is logged`, async () => {
      const result = await run("credentials.ts", mode, { env: { CANARY } });
      assert.deepEqual([result.stdout, result.code], ["200,200,200,200,200,200,200,200\n", 0], result.stderr);
      assertNoCanary(result, mode);
      const lines = new Set(result.lines);
      for (const line of [
        `[fetch] > HTTP/1.1 GET <base>/echo?${redactedQuery}`,
        "[fetch] > Authorization: Bearer [REDACTED]",
        "[fetch] > Cookie: session=[REDACTED]; theme=[REDACTED]",
        "[fetch] > X-Api-Key: [REDACTED]",
        "[fetch] > X-Auth-Token: [REDACTED]",
        "[fetch] > Private-Token: [REDACTED]",
        "[fetch] > X-Custom: visible",
        "[fetch] < Set-Cookie: sid=[REDACTED]; Path=/; HttpOnly",
        '[fetch] < WWW-Authenticate: Bearer realm="rt"',
        "[fetch] > Authorization: Basic [REDACTED]",
        "[fetch] > Proxy-Authorization: Basic [REDACTED]",
        "[fetch] < Location: /echo?access_token=[REDACTED]",
        "[fetch] > HTTP/1.1 GET <base>/echo?access_token=[REDACTED]",
        "[fetch] > HTTP/1.1 GET <base>/echo?token=[REDACTED]",
        "[fetch] > HTTP/1.1 GET http://[REDACTED]@example.test/echo?access_token=[REDACTED]",
        "[fetch] > HTTP/1.1 POST <base>/echo",
        "[fetch] > content-type: application/x-www-form-urlencoded;charset=UTF-8",
      ]) {
        assert.ok(lines.has(line), `missing ${JSON.stringify(line)} in\n${result.stderr}`);
      }
      if (mode === "true") return;
      const curls = result.lines.filter((line) => line.startsWith("[fetch] $ curl "));
      assert.equal(curls.length, 9);
      assert.ok(curls[1].endsWith(" --data-raw 'grant_type=refresh_token&refresh_token=[REDACTED]&client_secret=[REDACTED]'"), curls[1]);
      assert.ok(curls[2].endsWith(` --data-raw '{"user":"u","password":"[REDACTED]","nested":{"apiKey":"[REDACTED]","n":1}}'`), curls[2]);
    });

    test(`${mode}: rt's own registry requests (an .npmrc _authToken) are redacted`, async (t) => {
      const dir = tempDir(t, "rt-verbose-install-");
      const registry = `${base()}/registry/`;
      writeFileSync(path.join(dir, ".npmrc"), `registry=${registry}\n${registry.replace(/^http:/, "")}:_authToken=${CANARY}\n`);
      writeFileSync(path.join(dir, "main.ts"), 'import greet from "rt-canary-package";\nconsole.log(greet);\n');
      const result = await run("main.ts", mode, {
        cwd: dir,
        env: {
          npm_config_userconfig: path.join(dir, "no-user-npmrc"),
          npm_config_registry: "",
          npm_config_fetch_retries: "0",
          XDG_CACHE_HOME: path.join(dir, "cache"),
        },
      });
      assert.equal(result.code, 1);
      assertNoCanary(result, mode);
      assert.ok(result.lines.includes("[fetch] > HTTP/1.1 GET <base>/registry/rt-canary-package"), result.stderr);
      assert.ok(result.lines.includes("[fetch] > authorization: Bearer [REDACTED]"), result.stderr);
    });
  }

  test("curl: with the credentials put back, real curl sends what the program sent", async (t) => {
    if (spawnSync("curl", ["--version"]).error) return skipUnlessCI(t, "curl is not installed");
    received.length = 0;
    const result = await run("credentials.ts", "curl", { env: { CANARY } });
    const sent = received.splice(0);
    // The first three: a GET with credential headers and query, a form POST, a JSON POST.
    const curls = result.lines.filter((line) => line.startsWith("[fetch] $ ")).slice(0, 3);
    for (const [i, line] of curls.entries()) {
      const command = line.slice("[fetch] $ ".length).replace("<base>", base()).replaceAll("[REDACTED]", CANARY);
      const curl = await shell(`${command} --silent`);
      assert.deepEqual([curl.code, curl.stdout], [0, "ok"], curl.stderr);
      const again = received.splice(0);
      assert.deepEqual(again, [sent[i]], command);
    }
  });

  test("curl: the method, URL, headers and body are shell-quoted; pasted into sh, nothing in them runs", async (t) => {
    const dir = tempDir(t, "rt-verbose-paste-");
    const result = await run("fetch-hostile.ts", "curl");
    const line = result.lines.find((line) => line.startsWith("[fetch] $ curl "));
    assert.ok(line, result.stderr);
    // A curl that records its arguments, first on PATH.
    const argvFile = path.join(dir, "argv");
    writeFileSync(path.join(dir, "curl"), `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}'\n`);
    chmodSync(path.join(dir, "curl"), 0o755);
    const pasted = await shell(line.slice("[fetch] $ ".length).replace("<base>", base()), {
      cwd: dir,
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
    });
    assert.equal(pasted.code, 0, pasted.stderr);
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.startsWith(".pwned")),
      [],
    );
    assert.deepEqual(readFileSync(argvFile, "utf8").split("\n").slice(0, -1), [
      "--http1.1",
      "--globoff",
      `${base()}/x'$(touch$IFS.pwned-url)'`,
      "-X",
      "X`touch$IFS.pwned-method`",
      "-H",
      `host: 127.0.0.1:${servers.http.address().port}`,
      "-H",
      "connection: keep-alive",
      "-H",
      "Content-Type: text/plain",
      "-H",
      "X-Note: it'$(touch .pwned-header)'",
      "-H",
      "accept: */*",
      "-H",
      "accept-language: *",
      "-H",
      "sec-fetch-mode: cors",
      "-H",
      "user-agent: node",
      "-H",
      "accept-encoding: gzip, deflate",
      "-H",
      "content-length: 43",
      "--compressed",
      "--data-raw",
      "a'$(touch .pwned-body)'`touch .pwned-body2`",
    ]);
    assert.equal(existsSync(path.join(DIR, ".pwned-method")), false);
  });
});
