// Non-script files as modules: the default json/toml/text loaders, `--loader .ext:name` for
// text, toml, jsx, file, wasm and napi, and how JSON/TOML syntax errors are reported.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES, rt, tempDir, skipUnlessCI, runOk } from "./rt.mjs";

const HERE = path.join(FIXTURES, "loaders");
const ERRORS = path.join(HERE, "errors");

const jsonLines = (stdout) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));

// ---------------------------------------------------------------------------------------------
// Default loaders

test("default loaders: .json and .toml give default and named exports, .txt gives the text", () => {
  const [json, toml, text] = jsonLines(runOk(HERE, ["defaults.ts"]));
  assert.deepEqual(json, {
    name: "loaders",
    port: 8080,
    tags: ["a", "b"],
    sameObject: true,
    keys: ["name", "port", "tags", "not-an-identifier", "default"],
  });
  assert.deepEqual(toml, {
    title: "TOML fixture",
    owner: { name: "Ada" },
    servers: [{ name: "alpha" }, { name: "beta" }],
    ports: [8000, 8001],
    limits: { cpu: 2, memory: "1G" },
  });
  assert.equal(text, readFileSync(path.join(HERE, "note.txt"), "utf8"));
  assert.equal(text, "first line\nsecond line ✓\n");
});

test("default loaders under require(): module.exports is the value", () => {
  assert.deepEqual(JSON.parse(runOk(HERE, ["defaults-require.cts"])), {
    port: 8080,
    title: "TOML fixture",
    servers: 2,
    note: "first line\nsecond line ✓\n",
  });
});

// ---------------------------------------------------------------------------------------------
// --loader

test("--loader .data:text and --loader .cfg:toml", () => {
  const out = runOk(HERE, ["--loader", ".data:text", "--loader", ".cfg:toml", "custom.ts"]);
  assert.deepEqual(JSON.parse(out), {
    payload: "raw data, not parsed\n",
    server: { host: "localhost", port: 4000 },
    host: "localhost",
  });
});

test("without --loader, an unknown extension cannot be imported", () => {
  const result = rt(["custom.ts"], { cwd: HERE });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /Unknown file extension "\.data"/);
});

test("--loader .js:jsx with --jsx-runtime=classic: JSX in .js files, entry and imports", () => {
  const out = runOk(HERE, ["--loader", ".js:jsx", "--jsx-runtime=classic", "jsx-in-js/main.js"]);
  assert.equal(out, '<section id="main"><p class="greeting">Hello, rt!</p></section>\n');
});

test("without --loader .js:jsx, JSX in a .js file is a syntax error", () => {
  const result = rt(["--jsx-runtime=classic", "jsx-in-js/main.js"], { cwd: HERE });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /SyntaxError: Unexpected token '<'/);
});

test("--loader .bin:file: the default export is the file's absolute path", () => {
  const blob = path.join(HERE, "blob.bin");
  assert.deepEqual(JSON.parse(runOk(HERE, ["--loader", ".bin:file", "file-loader.ts"])), { blob, absolute: true, bytes: 9 });
  assert.equal(runOk(HERE, ["--loader", ".bin:file", "file-loader-require.cts"]), `${blob}\n`);
});

test("--loader .wasm:wasm: import { add } from a real .wasm module", () => {
  assert.equal(readFileSync(path.join(HERE, "add.wasm")).length, 41);
  assert.deepEqual(JSON.parse(runOk(HERE, ["--loader", ".wasm:wasm", "wasm-import.ts"])), { add: 5, viaDefault: 42, exports: ["add"] });
});

test("--loader .wasm:wasm: require() of a .wasm module gives its exports", () => {
  assert.equal(runOk(HERE, ["--loader", ".wasm:wasm", "wasm-require.cts"]), "add(20, 22) = 42\n");
});

test("--loader .ext:ts / tsx / js / json map any extension to the script and JSON loaders", () => {
  const dir = path.join(HERE, "script-loaders");
  const args = ["--loader", ".mts2:ts", "--loader=.tmpl:tsx", "--loader", ".code:js", "--loader", ".jsonc5:json", "--jsx-runtime=classic", "main.ts"];
  assert.deepEqual(JSON.parse(runOk(dir, args)), {
    typed: 42,
    view: { type: "i", props: { class: "x" } },
    plain: "plain js",
    data: { from: "json loader" },
  });
});

test("--loader with an unknown loader name is a usage error", () => {
  const result = rt(["--loader", ".data:yaml", "custom.ts"], { cwd: HERE });
  assert.deepEqual(
    { code: result.code, stdout: result.stdout, stderr: result.stderr },
    {
      code: 2,
      stdout: "",
      stderr: 'rt: invalid loader "yaml" in --loader .data:yaml; valid loaders: js, jsx, ts, tsx, json, toml, text, file, wasm, napi\n',
    },
  );
});

// ---------------------------------------------------------------------------------------------
// napi: a real addon compiled at test time (no binary is committed)

function nodeApiHeaders() {
  const candidates = [path.resolve(process.execPath, "../../include/node"), "/usr/local/include/node", "/usr/include/node"];
  return candidates.find((dir) => existsSync(path.join(dir, "node_api.h")));
}

function buildAddon(t) {
  const headers = nodeApiHeaders();
  if (!headers) return { skip: "no node_api.h found to compile the test addon" };
  const dir = tempDir(t, "rt-napi-");
  cpSync(path.join(HERE, "napi"), dir, { recursive: true });
  const cc = spawnSync("cc", ["-shared", "-fPIC", `-I${headers}`, "hello.c", "-o", "hello.node"], { cwd: dir, encoding: "utf8" });
  if (cc.error || cc.status !== 0) return { skip: `cannot compile the test addon: ${cc.error?.message ?? cc.stderr}` };
  copyFileSync(path.join(dir, "hello.node"), path.join(dir, "hello.addon"));
  return { dir };
}

test("--loader .node:napi: import of a native addon", (t) => {
  const { dir, skip } = buildAddon(t);
  if (skip) return skipUnlessCI(t, skip);
  assert.deepEqual(JSON.parse(runOk(dir, ["--loader", ".node:napi", "import-addon.ts"])), { hello: "hello from napi", sum: 5 });
});

test("--loader .addon:napi: require of a native addon with a custom extension", (t) => {
  const { dir, skip } = buildAddon(t);
  if (skip) return skipUnlessCI(t, skip);
  assert.deepEqual(JSON.parse(runOk(dir, ["--loader", ".addon:napi", "require-addon.cts"])), { hello: "hello from napi", sum: 42 });
});

// ---------------------------------------------------------------------------------------------
// Syntax errors in data files: file:line:col, exit 1, no stack trace

const TOML_ERROR = "broken.toml:3:8: error: Invalid TOML document: invalid value\n";
const JSON_ERROR = "broken.json:3:16: error: Expected double-quoted property name in JSON at position 37 (line 3 column 16)\n";

function assertReported(result, stderr) {
  assert.deepEqual({ code: result.code, stdout: result.stdout, stderr: result.stderr }, { code: 1, stdout: "", stderr });
  assert.doesNotMatch(result.stderr, /^ {4}at /m);
}

test("a TOML syntax error is reported as file:line:col: error, without a stack", () => {
  assertReported(rt(["import-toml.ts"], { cwd: ERRORS }), TOML_ERROR);
  assertReported(rt(["require-toml.cts"], { cwd: ERRORS }), TOML_ERROR);
});

test("the error's path is relative to the working directory", () => {
  assertReported(rt(["errors/import-toml.ts"], { cwd: HERE }), `errors/${TOML_ERROR}`);
  assertReported(rt(["errors/import-json.ts"], { cwd: HERE }), `errors/${JSON_ERROR}`);
});

test("a JSON syntax error (import) is reported as file:line:col: error, without a stack", () => {
  assertReported(rt(["import-json.ts"], { cwd: ERRORS }), JSON_ERROR);
});

test("a JSON syntax error under require() is reported the same way", () => {
  assertReported(rt(["require-json.cts"], { cwd: ERRORS }), JSON_ERROR);
});

test('a JSON syntax error under with { type: "json" } is reported the same way', () => {
  assertReported(rt(["import-json-with.ts"], { cwd: ERRORS }), JSON_ERROR);
});
