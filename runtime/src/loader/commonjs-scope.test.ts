// withCommonJsScope as a table: which ES modules get require/__filename/__dirname imported, and
// that a module declaring one of them is left alone (a second declaration is a SyntaxError).
import assert from "node:assert/strict";
import { test } from "node:test";
import { INLINE_MAP } from "../diagnostics/source-maps.js";
import { withCommonJsScope } from "./commonjs-scope.js";

const FILE = "/app/src/mixed.ts";

/** The names the appended import brings in, or [] when the code is left as it is. */
function imported(code: string): string[] {
  const result = withCommonJsScope(code, FILE);
  if (result === code) return [];
  return /^import \{ ([^}]+) \} from "data:/m.exec(result)![1]!.split(", ");
}

const ROWS: [string, string[]][] = [
  ['import x from "y";\nconst fs = require("node:fs");', ["require"]],
  ["const p = require.resolve('pkg');", ["require"]],
  ["console.log(__dirname, __filename);", ["__filename", "__dirname"]],
  ["export const a = 1;", []],
  ["obj.require('x'); thing.__dirname;", []],
  ['import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\nrequire("x");', []],
  ["const __filename = f(), __dirname = g(__filename);", []],
  ["let a, __dirname;\n__dirname = 1;", []],
  ['import { require } from "./own.js";\nrequire("x");', []],
  ['import { make as require } from "./own.js";\nrequire("x");', []],
  ["function require(id) {}\nrequire('x');", []],
  ["const { require } = context;\nrequire('x');", []],
  ["const requireFoo = 1; myrequire(); requirements;", []],
];

for (const [code, names] of ROWS) {
  test(`${JSON.stringify(code)} → ${names.join(", ") || "unchanged"}`, () => assert.deepEqual(imported(code), names));
}

test("the import is the last line of code, before the inline source map: no line moves", () => {
  const map = `${INLINE_MAP}e30=\n`;
  const code = `import a from "a";\nrequire("b");\n${map}`;
  const result = withCommonJsScope(code, FILE);
  const lines = result.split("\n");
  assert.deepEqual(lines.slice(0, 2), code.split("\n").slice(0, 2));
  assert.match(lines[2]!, /^import \{ require \} from "data:text\/javascript,/);
  assert.ok(result.endsWith(map));
});

test("the data: module makes require for the file, and its __filename/__dirname", async () => {
  const result = withCommonJsScope("console.log(__filename, __dirname, require);", FILE);
  const url = /from "(data:[^"]+)"/.exec(result)![1]!;
  const scope = decodeURIComponent(url.slice("data:text/javascript,".length));
  assert.match(scope, /createRequire\("file:\/\/\/app\/src\/mixed\.ts"\)/);
  assert.match(scope, /__filename = "\/app\/src\/mixed\.ts"/);
  assert.match(scope, /__dirname = "\/app\/src"/);
});
