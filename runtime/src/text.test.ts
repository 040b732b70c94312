// The helpers behind rt's one-line errors: positions and "did you mean".
import assert from "node:assert/strict";
import { test } from "node:test";
import { closestMatches, lineColumn } from "./text.js";

test("lineColumn is 1-based and counts lines by \\n", () => {
  assert.deepEqual(lineColumn("ab\ncd", 0), { line: 1, column: 1 });
  assert.deepEqual(lineColumn("ab\ncd", 4), { line: 2, column: 2 });
});

test("closestMatches suggests names a typo away, and nothing for an unrelated word", () => {
  assert.deepEqual(closestMatches("biuld", ["build", "test", "dev"]), ["build"]);
  assert.deepEqual(closestMatches("zzzzzz", ["build", "test", "dev"]), []);
});
