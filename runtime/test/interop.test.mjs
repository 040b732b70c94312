// How ES modules see CommonJS modules (loader/commonjs-interop.ts), as bun does: named imports
// of every key of the real `module.exports` (not only what Node's lexer finds), in every package
// type; `__esModule` + `exports.default` is the default export; the module runs once.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES, rt, runOk } from "./rt.mjs";

const HERE = path.join(FIXTURES, "interop");
const NO_TYPE = path.join(HERE, "no-type");
const UMD_RESULT = { chunks: [[1, 2], [3]], kebab: "foo-bar", same: true };

test("the fixture's UMD package hides its names from Node's lexer (what the tests below fix)", () => {
  const node = spawnSync(process.execPath, ["named-from-umd.mjs"], { cwd: NO_TYPE, encoding: "utf8" });
  assert.equal(node.status, 1);
  assert.match(node.stderr, /Named export 'chunk' not found/);
});

test("named imports from a CommonJS package whose exports the lexer cannot see, in every package type", () => {
  for (const dir of ["no-type", "module-pkg", "commonjs-pkg"]) {
    assert.deepEqual(JSON.parse(runOk(path.join(HERE, dir), ["named-from-umd.ts"])), UMD_RESULT, dir);
  }
  assert.equal(runOk(NO_TYPE, ["named-from-umd.mjs"]), '[["a","b"],["c"]]\n');
});

test("named imports from CommonJS in a module with top-level await", () => {
  assert.equal(runOk(NO_TYPE, ["tla-named.ts"]), '[["x"],["y"]]\n');
});

test("a CommonJS module imported and required runs once and is one object", () => {
  assert.deepEqual(JSON.parse(runOk(NO_TYPE, ["once.ts"])), { runs: 1, sameObject: true });
});

test("an error thrown while a CommonJS module loads rejects its import with that error", () => {
  assert.equal(runOk(NO_TYPE, ["imports-throwing.ts"]), "caught: thrown while loading throws.cjs\n");
});

test("default import of compiled CommonJS (__esModule + exports.default) is exports.default", () => {
  assert.deepEqual(JSON.parse(runOk(NO_TYPE, ["compiled-default.ts"])), { greeting: "hello rt", tag: "compiled", namespaceDefault: true });
});

// ---------------------------------------------------------------------------------------------
// Lenient module classification (loader/hooks.ts formatFor, loader/commonjs-scope.ts), as bun

const COMMONJS_PKG = path.join(HERE, "commonjs-pkg");
const MODULE_PKG = path.join(HERE, "module-pkg");

test("a .ts or .js file mixing import/export with require() runs, with __filename", () => {
  for (const [dir, file] of [
    [COMMONJS_PKG, "mixed.ts"],
    [COMMONJS_PKG, "mixed.js"],
    [MODULE_PKG, "mixed.js"],
  ]) {
    assert.deepEqual(JSON.parse(runOk(dir, [file])), { joined: "a/b", readFileSync: "function", file }, `${dir} ${file}`);
  }
});

test('ESM syntax in a dependency\'s .js under "type": "commonjs" runs, imported and required', () => {
  const hello = "hello from esm-in-commonjs";
  assert.deepEqual(JSON.parse(runOk(COMMONJS_PKG, ["esm-dependency.ts"])), { imported: hello, required: hello });
});

test('`import x = require("y")` in a "type": "module" package', () => {
  assert.deepEqual(JSON.parse(runOk(MODULE_PKG, ["import-equals.ts"])), { joined: "a/b", chunks: [[1], [2]] });
});

test("an ES module that declares its own require and __dirname is left alone", () => {
  assert.deepEqual(JSON.parse(runOk(MODULE_PKG, ["declares-own.ts"])), { dir: "module-pkg" });
});

test("a CommonJS export whose getter throws is undefined; the other names import", () => {
  assert.deepEqual(JSON.parse(runOk(NO_TYPE, ["imports-throwing-getter.ts"])), { ok: 1, broken: null, names: ["broken", "default", "module.exports", "ok"] });
});

test("a CommonJS module imported from ESM runs after the ES modules imported above it (Node's order)", () => {
  const set = "set by an ES module";
  assert.deepEqual(JSON.parse(runOk(NO_TYPE, ["order.ts"])), { seen: set, now: set });
  // Names the lexer cannot see: a default import, and a named one (checked once the module ran).
  assert.deepEqual(JSON.parse(runOk(NO_TYPE, ["order-default.ts"])), { seen: set });
  assert.deepEqual(JSON.parse(runOk(NO_TYPE, ["order-unlexed.ts"])), { seen: set });
});

test("a named import a CommonJS module does not have fails with Node's SyntaxError", () => {
  const result = rt(["order-missing.ts"], { cwd: NO_TYPE });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /SyntaxError: The requested module '[^']*reads-flag-hidden\.cjs' does not provide an export named 'absent'/);
});

test("a later importer asking a name the first one's facade lacks still gets it, from the one evaluation", () => {
  // The module then runs while that importer links (bun's order): both see the same value.
  const { fromDefault, seen } = JSON.parse(runOk(NO_TYPE, ["order-late-name.ts"]));
  assert.equal(typeof seen, "string");
  assert.equal(fromDefault, seen);
});

test("a CommonJS module that require()s an ES module its importer also imports still loads (Node's way)", () => {
  assert.deepEqual(JSON.parse(runOk(NO_TYPE, ["esm-and-cjs-share.ts"])), { once: "hello a", twice: "hello b, hello b" });
});
