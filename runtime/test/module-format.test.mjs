// Which files run as ES modules and which as CommonJS (the policy in `formatFor`, loader/format.ts):
// .mts/.mjs are ESM and .cts/.cjs CommonJS; under "type": "module" everything is ESM; under
// "type": "commonjs" TypeScript's import/export compile to CommonJS (tsc, tsx) unless the file
// needs ESM (top-level await, import.meta); anything else (a .js under "type": "commonjs" too, as
// in bun) is ESM when its syntax says so, else CommonJS. An ES module that uses require() gets one
// (bun's rule; interop.test.mjs).
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES, rt, runOk } from "./rt.mjs";

const HERE = path.join(FIXTURES, "module-format");
const COMMONJS_PKG = path.join(HERE, "commonjs-pkg");
const MODULE_PKG = path.join(HERE, "module-pkg");
const NO_TYPE = path.join(HERE, "no-type");

// ---------------------------------------------------------------------------------------------
// A "type": "commonjs" package, as `npm init -y` writes it

test('a .ts file that uses import.meta runs as ESM under "type": "commonjs"', () => {
  assert.deepEqual(JSON.parse(runOk(COMMONJS_PKG, ["esm-entry.ts"])), {
    format: "esm",
    file: "esm-entry.ts",
    main: true,
    greet: "hello esm",
  });
});

test('import x = require() and export function in a .ts file run as CommonJS under "type": "commonjs" (tsc, tsx)', () => {
  assert.deepEqual(JSON.parse(runOk(COMMONJS_PKG, ["import-equals.ts"])), {
    format: "cjs",
    isMain: true,
    greet: "hello import-equals.ts",
    exports: ["describe"],
  });
});

test("a .ts file with require/module.exports runs as CommonJS; require.main === module for the entry only", () => {
  assert.deepEqual(JSON.parse(runOk(COMMONJS_PKG, ["cjs-entry.ts"])), {
    format: "cjs",
    isMain: true,
    file: "cjs-entry.ts",
    twice: 42,
    twiceIsMain: false,
  });
});

test("a .ts file with neither ESM syntax nor require runs as CommonJS", () => {
  assert.equal(runOk(COMMONJS_PKG, ["no-syntax.ts"]), "cjs\n");
});

test("top-level await makes a .ts entry an ES module", () => {
  assert.deepEqual(JSON.parse(runOk(COMMONJS_PKG, ["tla.ts"])), { format: "esm", value: 42 });
});

test(".mts is always ESM and .cts always CommonJS", () => {
  assert.equal(runOk(COMMONJS_PKG, ["explicit.mts"]), "explicit.mts: esm, require is function\n");
  assert.equal(runOk(COMMONJS_PKG, ["explicit.cts"]), "explicit.cts: cjs, isMain true\n");
  assert.equal(runOk(MODULE_PKG, ["explicit.cts"]), "explicit.cts: cjs\n");
});

test("a .cts file may use TypeScript's import/export syntax and still runs as CommonJS", () => {
  assert.equal(runOk(COMMONJS_PKG, ["cts-import-syntax.cts"]), "cts-import-syntax.cts: cjs\n");
});

test('plain .js under "type": "commonjs" is CommonJS (Node\'s rule)', () => {
  assert.equal(runOk(COMMONJS_PKG, ["plain.js"]), "plain.js: cjs, isMain true\n");
});

test('ESM syntax in plain .js under "type": "commonjs" runs as ESM, as in bun (Node refuses it)', () => {
  assert.equal(runOk(COMMONJS_PKG, ["plain-esm-syntax.js"]), "/\n");
});

// ---------------------------------------------------------------------------------------------
// "type": "module" and no type

test('under "type": "module" every file is ESM, whatever its syntax', () => {
  assert.equal(runOk(MODULE_PKG, ["no-syntax.ts"]), "no-syntax.ts: esm, require is function\n");
  assert.equal(runOk(MODULE_PKG, ["plain.js"]), "plain.js: esm\n");
  assert.equal(runOk(MODULE_PKG, ["component.tsx"]), "component.tsx: esm\n");
});

test("with no type, files are ESM or CommonJS by their syntax", () => {
  assert.equal(runOk(NO_TYPE, ["cjs.ts"]), "cjs.ts: cjs\n");
  assert.equal(runOk(NO_TYPE, ["cjs.js"]), "cjs.js: cjs\n");
  assert.equal(runOk(NO_TYPE, ["esm.jsx"]), "esm.jsx: esm\n");
  const esmJs = rt(["esm.js"], { cwd: NO_TYPE });
  assert.deepEqual({ code: esmJs.code, stdout: esmJs.stdout }, { code: 0, stdout: "esm.js: esm\n" });
});

test("a default import of an ES module without one fails to link, as in Node and bun, with a hint", () => {
  const result = rt(["default-import.ts"], { cwd: NO_TYPE });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^SyntaxError: The requested module '\.\/named-only\.mjs' does not provide an export named 'default'$/m);
  assert.match(
    result.stderr,
    /^hint: '\.\/named-only\.mjs' is an ES module without a default export: import its names \(import \{ name \} from '\.\/named-only\.mjs'\) or its namespace \(import \* as name from '\.\/named-only\.mjs'\)$/m,
  );
});

test("plain .js with ESM syntax and no type runs without warnings, like .ts and .jsx do", () => {
  assert.equal(runOk(NO_TYPE, ["esm.js"]), "esm.js: esm\n");
});

// ---------------------------------------------------------------------------------------------
// Interop

test("ESM imports CommonJS: default export is module.exports, named exports are detected", () => {
  assert.deepEqual(JSON.parse(runOk(COMMONJS_PKG, ["esm-imports-cjs.mts"])), {
    named: "named from lib.cjs",
    count: 3,
    libDefault: { named: "named from lib.cjs", count: 3 },
    fromTs: "named from cjs-lib.ts",
    tsDefault: { fromTs: "named from cjs-lib.ts" },
    fromCts: "named from cts-lib.cts",
    ctsDefault: { fromCts: "named from cts-lib.cts" },
  });
});

test("CommonJS requires an ES module written in TypeScript (require(esm)); require.extensions lists .ts and the rest", () => {
  assert.deepEqual(JSON.parse(runOk(COMMONJS_PKG, ["cjs-requires-esm.cts"])), {
    value: 7,
    double: 8,
    defaultExport: "esm-lib default",
    keys: ["__esModule", "default", "double", "value"],
  });
  // Through require.extensions[".ts"] (`.js`'s handler, which loads through rt's hooks), as a tool
  // that wraps it sees: CommonJS and ES module syntax each in its format.
  assert.deepEqual(JSON.parse(runOk(NO_TYPE, ["require-extensions.cjs"])), {
    extensions: [".js", ".json", ".node", ".ts", ".mts", ".cts", ".tsx", ".jsx"],
    sameHandler: true,
    seen: ["cjs-syntax.ts", "esm-syntax.ts"],
    cjs: 4,
    esm: 6,
    esmDefault: "esm-syntax default",
  });
});

// ---------------------------------------------------------------------------------------------
// JSON

const DATA = { name: "data", items: [1, 2, 3], nested: { ok: true } };

test("JSON import without attributes: default export plus named exports of top-level keys", () => {
  assert.deepEqual(JSON.parse(runOk(COMMONJS_PKG, ["json-import.ts"])), { data: DATA, name: "data", items: [1, 2, 3] });
});

test('JSON import with { type: "json" }', () => {
  assert.deepEqual(JSON.parse(runOk(COMMONJS_PKG, ["json-with.ts"])), DATA);
});

test("require of JSON gives the parsed value, cached", () => {
  assert.deepEqual(JSON.parse(runOk(COMMONJS_PKG, ["json-require.ts"])), { data: DATA, cached: true });
});
