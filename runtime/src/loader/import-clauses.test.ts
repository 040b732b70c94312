// askedOf as a table: the names an ES module's static statements ask of one specifier, and that
// text which holds no statement (comments, string, template and regular expression literals)
// asks nothing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { askedOf } from "./import-clauses.js";

const ROWS: [string, string[] | "all"][] = [
  ['import { a, b as c } from "pkg";', ["a", "b"]],
  ["import d, { a } from 'pkg';", ["default", "a"]],
  ['import "pkg";', []],
  ['import * as ns from "pkg";', "all"],
  ['export * from "pkg";', "all"],
  ['export { a } from "pkg";', ["a"]],
  ['const m = await import("pkg");', "all"],
  ['import { a } from "other";', "all"],
  // svelte's compiler: a JSDoc type import beside the real import.
  ["/** @import { ARIARoleDefinitionKey } from 'aria-query' */\nimport { roles, aria } from 'aria-query';", ["roles", "aria"]],
  ['// import { X } from "pkg"\nimport { a } from "pkg";', ["a"]],
  ['/* import * as all from "pkg" */ import { a } from "pkg";', ["a"]],
  ['import { a } from "pkg";\nconst doc = `import { X } from "pkg"`;', ["a"]],
  ['import { a } from "pkg";\nconst s = "import { X } from \'pkg\'";', ["a"]],
  ['import { a } from "pkg";\nconst re = /import { X } from "pkg"/;', ["a"]],
  // A quote inside a regular expression literal opens no string.
  ['const re = /"/;\nimport { a } from "pkg";', ["a"]],
  ['const url = "https://x"; import { a } from "pkg";', ["a"]],
  // Only comments name the specifier: no statement, every key.
  ['/** @import { X } from "pkg" */\nconst m = await import("pkg");', "all"],
];

for (const [source, expected] of ROWS) {
  test(`askedOf: ${JSON.stringify(source)}`, () => {
    const asked = askedOf(source, source.includes("aria-query") ? "aria-query" : "pkg");
    assert.deepEqual(asked === "all" ? "all" : [...asked], expected);
  });
}
