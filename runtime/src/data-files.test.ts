// tsconfig.json's JSONC read as JSON without loading a parser: comments and trailing commas go,
// strings and positions stay; what is not JSONC is still refused.
import assert from "node:assert/strict";
import { test } from "node:test";
import { jsoncAsJson, parseJsonc } from "./data-files.js";

const cases: [jsonc: string, value: unknown][] = [
  ['{"a": 1}', { a: 1 }],
  ['{\n  // a comment\n  "a": 1, /* another */ "b": [1, 2,],\n}', { a: 1, b: [1, 2] }],
  ['{"url": "http://x//y", "glob": "src/**/*.ts", "q": "a\\"//b", "c": ",]"}', { url: "http://x//y", glob: "src/**/*.ts", q: 'a"//b', c: ",]" }],
  ['{"a": [1, /* , */ 2 , ] , }', { a: [1, 2] }],
  ["/* only */ {}", {}],
];
for (const [jsonc, value] of cases) {
  test(`JSONC ${JSON.stringify(jsonc)}`, () => {
    assert.deepEqual(JSON.parse(jsoncAsJson(jsonc)), value);
    assert.equal(jsoncAsJson(jsonc).length, jsonc.length, "offsets kept");
    assert.equal(jsoncAsJson(jsonc).split("\n").length, jsonc.split("\n").length, "lines kept");
  });
}

test("what is not JSONC is refused at its line and column", () => {
  assert.throws(() => parseJsonc("/p/tsconfig.json", '{\n  "a": 1\n  "b": 2\n}', "ERR_TSCONFIG"), /tsconfig\.json:3:3: error: /);
  assert.throws(() => parseJsonc("/p/tsconfig.json", "{,}", "ERR_TSCONFIG"), /tsconfig\.json:1:2: error: /);
});
