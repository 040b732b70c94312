// Fetch defaults and trust stores in real rt processes against real local HTTP and HTTPS
// servers: --user-agent, --fetch-preconnect (the server sees one connection, opened before the
// program fetched), --dns-result-order, --use-system-ca / --use-default-lib-ca / --use-bundled-ca
// with a private CA put in or left out of each store (through SSL_CERT_FILE / SSL_CERT_DIR: the
// machine's own trust store is never touched).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { FIXTURES, rt, rtAsync, skipUnlessCI, tempDir } from "./rt.mjs";

const DIR = path.join(FIXTURES, "net");

/** An HTTP(S) server that records each request's User-Agent and each connection's opening time. */
function recordingServer(create) {
  const seen = { requests: [], connections: [] };
  const server = create((request, response) => {
    seen.requests.push({ path: request.url, userAgent: request.headers["user-agent"] ?? null, at: Date.now(), connection: request.socket.id });
    request.resume().on("end", () => response.end(`ok ${request.url}`));
  });
  server.on(server instanceof https.Server ? "secureConnection" : "connection", (socket) => {
    socket.id = seen.connections.length;
    seen.connections.push(Date.now());
  });
  return { server, seen, reset: () => ((seen.requests = []), (seen.connections = [])) };
}

function listen(server) {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`${server instanceof https.Server ? "https" : "http"}://127.0.0.1:${server.address().port}`)),
  );
}

describe("--user-agent", () => {
  const { server, seen } = recordingServer(http.createServer);
  let base;
  before(async () => (base = await listen(server)));
  after(() => server.close());

  test("the default User-Agent of fetch and http requests; a program's own header wins", async () => {
    const result = await rtAsync(["--user-agent", "my-cli/1.0 (test)", "user-agent.ts"], { cwd: DIR, env: { BASE: base } });
    assert.deepEqual({ code: result.code, stderr: result.stderr, stdout: result.stdout }, { code: 0, stderr: "", stdout: "done\n" });
    assert.deepEqual(
      seen.requests.map(({ path, userAgent }) => `${path} ${userAgent}`),
      ["/fetch my-cli/1.0 (test)", "/fetch-own own/2.0", "/fetch-request my-cli/1.0 (test)", "/http my-cli/1.0 (test)", "/http own/3.0"],
    );
  });

  test("without the flag: Node's defaults (fetch sends node, http none)", async () => {
    seen.requests = [];
    const result = await rtAsync(["user-agent.ts"], { cwd: DIR, env: { BASE: base } });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      seen.requests.map(({ path, userAgent }) => `${path} ${userAgent}`),
      ["/fetch node", "/fetch-own own/2.0", "/fetch-request node", "/http null", "/http own/3.0"],
    );
  });

  test("an empty or multi-line value: rt: ..., exit 2", () => {
    for (const value of ["", "a\nb"]) {
      assert.deepEqual(rt([`--user-agent=${value}`, "user-agent.ts"], { cwd: DIR }), {
        code: 2,
        signal: null,
        stdout: "",
        stderr: `rt: invalid value ${JSON.stringify(value)} for --user-agent: expected visible ASCII text, e.g. --user-agent "my-cli/1.0"\n`,
      });
    }
  });
});

describe("--fetch-preconnect", () => {
  const plain = recordingServer(http.createServer);
  let base;
  before(async () => (base = await listen(plain.server)));
  after(() => plain.server.close());

  test("the connection opens while code loads and the first fetch uses it", async () => {
    plain.reset();
    const result = await rtAsync(["--fetch-preconnect", base, "preconnect.ts"], { cwd: DIR, env: { BASE: base } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^fetch at \d+\n200 ok \/one\n$/);
    const fetchedAt = Number(/fetch at (\d+)/.exec(result.stdout)[1]);
    assert.equal(plain.seen.connections.length, 1, "one connection: the preconnected one served the fetch");
    // Opened before the program asked (it slept 300 ms first).
    assert.ok(fetchedAt - plain.seen.connections[0] >= 250, `connected ${fetchedAt - plain.seen.connections[0]} ms before the fetch`);
  });

  test("without it, the connection opens when the program fetches", async () => {
    plain.reset();
    const result = await rtAsync(["preconnect.ts"], { cwd: DIR, env: { BASE: base } });
    assert.equal(result.code, 0, result.stderr);
    const fetchedAt = Number(/fetch at (\d+)/.exec(result.stdout)[1]);
    assert.equal(plain.seen.connections.length, 1);
    assert.ok(plain.seen.connections[0] >= fetchedAt - 5, "connected when asked");
  });

  test("an origin that refuses: the program runs on, and its fetch reports the refusal", async () => {
    const closed = http.createServer();
    const refused = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    plain.reset();
    const result = await rtAsync(
      [
        "--fetch-preconnect",
        refused,
        "-e",
        `fetch("${refused}").catch((e) => console.log(e.cause.code)).then(() => fetch("${base}/x")).then((r) => r.text()).then(console.log)`,
      ],
      { cwd: DIR },
    );
    assert.deepEqual({ code: result.code, stdout: result.stdout, stderr: result.stderr }, { code: 0, stdout: "ECONNREFUSED\nok /x\n", stderr: "" });
  });

  test("a program that never fetches still exits at once", async () => {
    const started = Date.now();
    const result = await rtAsync(["--fetch-preconnect", base, "-e", "console.log('bye')"], { cwd: DIR });
    assert.deepEqual({ code: result.code, stdout: result.stdout }, { code: 0, stdout: "bye\n" });
    assert.ok(Date.now() - started < 5000);
  });

  test("an invalid URL names the flag: rt: ..., exit 2", () => {
    for (const [value, message] of [
      ["not a url", 'rt: invalid URL "not a url" for --fetch-preconnect: expected an http:// or https:// URL, e.g. https://api.example.com\n'],
      ["ftp://example.com", 'rt: invalid URL "ftp://example.com" for --fetch-preconnect: only http:// and https:// URLs can be preconnected\n'],
    ]) {
      assert.deepEqual(rt(["--fetch-preconnect", value, "preconnect.ts"], { cwd: DIR }), { code: 2, signal: null, stdout: "", stderr: message });
    }
  });
});

describe("--dns-result-order", () => {
  test("sets the order dns.lookup (and so fetch and net.connect) returns addresses in", () => {
    for (const order of ["verbatim", "ipv4first", "ipv6first"]) {
      const result = rt([`--dns-result-order=${order}`, "dns-order.ts"], { cwd: DIR, env: { LOOKUP_NAME: "localhost" } });
      assert.equal(result.code, 0, result.stderr);
      const [shown, families] = result.stdout.split("\n");
      assert.equal(shown, order);
      // Where localhost has both families (Debian's /etc/hosts), the order shows in the lookup.
      const list = families.split(",");
      if (list.includes("4") && list.includes("6") && order !== "verbatim") assert.equal(list[0], order === "ipv4first" ? "4" : "6");
    }
    assert.match(rt(["dns-order.ts"], { cwd: DIR }).stdout, /^verbatim\n/);
  });

  test("an unknown order: rt: ..., exit 2", () => {
    assert.deepEqual(rt(["--dns-result-order", "ipv5first", "dns-order.ts"], { cwd: DIR }), {
      code: 2,
      signal: null,
      stdout: "",
      stderr: 'rt: invalid value "ipv5first" for --dns-result-order; valid values: verbatim, ipv4first, ipv6first\n',
    });
  });
});

describe("trust stores", () => {
  const pki = {};
  let base;
  let server;
  let preconnects;
  before(async () => {
    const openssl = spawnSync("openssl", ["version"], { encoding: "utf8" });
    if (openssl.status !== 0) return;
    pki.dir = mkdtempSync(path.join(tmpdir(), "rt-pki-"));
    const run = (...args) => {
      const result = spawnSync("openssl", args, { cwd: pki.dir, encoding: "utf8" });
      assert.equal(result.status, 0, result.stderr);
    };
    // A private CA and a server certificate for 127.0.0.1 and localhost that it signs; a second CA that signs nothing.
    for (const name of ["ca", "other-ca"])
      run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", `/CN=rt test ${name}`, "-keyout", `${name}.key`, "-out", `${name}.pem`);
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", "server.key", "-out", "server.csr");
    writeFileSync(path.join(pki.dir, "san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.pem");
    // OpenSSL's directory form: the CA under its subject hash.
    for (const name of ["ca", "other-ca"]) {
      mkdirSync(path.join(pki.dir, `${name}-dir`));
      copyFileSync(path.join(pki.dir, `${name}.pem`), path.join(pki.dir, `${name}-dir`, `${name}.pem`));
      run("rehash", `${name}-dir`);
    }
    mkdirSync(path.join(pki.dir, "empty-dir"));
    const recording = recordingServer((handler) =>
      https.createServer({ key: readFileSync(path.join(pki.dir, "server.key")), cert: readFileSync(path.join(pki.dir, "server.pem")) }, handler),
    );
    server = recording.server;
    preconnects = recording;
    base = await listen(server);
  });
  after(() => {
    server?.close();
    if (pki.dir) rmSync(pki.dir, { recursive: true, force: true });
  });

  /** The stores as a test sets them: the CA in SSL_CERT_FILE, in SSL_CERT_DIR, or in neither. */
  const stores = (where) => ({
    NODE_EXTRA_CA_CERTS: "",
    SSL_CERT_FILE: path.join(pki.dir, where === "file" ? "ca.pem" : "other-ca.pem"),
    SSL_CERT_DIR: path.join(pki.dir, where === "dir" ? "ca-dir" : "other-ca-dir"),
  });
  // rtAsync: the HTTPS server runs in this process, so it must keep answering while rt runs.
  const probe = async (t, flags, where) => {
    if (!pki.dir) return skipUnlessCI(t, "openssl is not installed (Debian package openssl)");
    const result = await rtAsync([...flags, "tls-probe.ts"], { cwd: DIR, env: { BASE: base, ...stores(where) } });
    assert.equal(result.stderr, "");
    return result.stdout;
  };
  const trusted = "fetch: 200 ok /\nhttps: 200\n";
  const untrusted = "fetch: UNABLE_TO_VERIFY_LEAF_SIGNATURE\nhttps: UNABLE_TO_VERIFY_LEAF_SIGNATURE\n";

  test("default and --use-bundled-ca: the bundled Mozilla roots only, not the OS or OpenSSL store", async (t) => {
    for (const flags of [[], ["--use-bundled-ca"]]) {
      for (const where of ["file", "dir"])
        assert.equal(await probe(t, flags, where), `${untrusted}bundled roots trusted: all\n`, `${flags} with the CA in the ${where}`);
    }
  });

  test("--use-system-ca: the OS store (on Linux OpenSSL's file and directory) as well as the bundled roots", async (t) => {
    assert.equal(await probe(t, ["--use-system-ca"], "file"), `${trusted}bundled roots trusted: all\n`);
    assert.equal(await probe(t, ["--use-system-ca"], "dir"), `${trusted}bundled roots trusted: all\n`);
    assert.equal(await probe(t, ["--use-system-ca"], "neither"), `${untrusted}bundled roots trusted: all\n`);
    assert.equal(await probe(t, ["--use-system-ca", "--use-bundled-ca"], "file"), `${trusted}bundled roots trusted: all\n`);
  });

  test("--use-default-lib-ca: OpenSSL's default store instead of the bundled roots", async (t) => {
    assert.equal(await probe(t, ["--use-default-lib-ca"], "file"), `${trusted}bundled roots trusted: none\n`);
    assert.equal(await probe(t, ["--use-default-lib-ca"], "dir"), `${trusted}bundled roots trusted: none\n`);
    assert.equal(await probe(t, ["--use-default-lib-ca"], "neither"), `${untrusted}bundled roots trusted: none\n`);
  });

  test("rtfig.toml can choose the store", async (t) => {
    const dir = tempDir(t);
    copyFileSync(path.join(DIR, "tls-probe.ts"), path.join(dir, "tls-probe.ts"));
    writeFileSync(path.join(dir, "rtfig.toml"), "use-system-ca = true\n");
    if (!pki.dir) return skipUnlessCI(t, "openssl is not installed (Debian package openssl)");
    const result = await rtAsync(["tls-probe.ts"], { cwd: dir, env: { BASE: base, ...stores("file") } });
    assert.equal(result.stdout, `${trusted}bundled roots trusted: all\n`, result.stderr);
  });

  test("an HTTPS preconnect verifies with the chosen store and serves the first fetch", async (t) => {
    if (!pki.dir) return skipUnlessCI(t, "openssl is not installed (Debian package openssl)");
    preconnects.reset();
    const result = await rtAsync(["--use-system-ca", "--fetch-preconnect", base, "preconnect.ts"], { cwd: DIR, env: { BASE: base, ...stores("file") } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /200 ok \/one\n$/);
    assert.equal(preconnects.seen.connections.length, 1);
    const fetchedAt = Number(/fetch at (\d+)/.exec(result.stdout)[1]);
    assert.ok(fetchedAt - preconnects.seen.connections[0] >= 250, `TLS was up ${fetchedAt - preconnects.seen.connections[0]} ms before the fetch`);
  });

  test("OpenSSL's store excludes the other two: rt: ..., exit 2", () => {
    for (const other of ["--use-system-ca", "--use-bundled-ca"]) {
      assert.deepEqual(rt(["--use-default-lib-ca", other, "tls-probe.ts"], { cwd: DIR }), {
        code: 2,
        signal: null,
        stdout: "",
        stderr: `rt: --use-default-lib-ca and ${other} choose different certificate stores: give one of them\n`,
      });
    }
  });
});
