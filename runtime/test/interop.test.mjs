// How ES modules see CommonJS modules (loader/commonjs-interop.ts), as bun does: named imports
// of every key of the real `module.exports` (not only what Node's lexer finds), in every package
// type; `__esModule` + `exports.default` is the default export; the module runs once.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES, runOk } from "./rt.mjs";

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
