// Generated positions back to the TypeScript a user wrote: lines and 1-based columns, through the
// inline map esbuild writes, and no answer (the caller keeps the generated position) without one.
import assert from "node:assert/strict";
import { test } from "node:test";
import { transformSync } from "esbuild";
import { originalPosition, originalSource, registerTranspiled } from "./source-maps.js";

const source = [
  "interface Point { x: number; y: number }",
  "",
  "const origin: Point = { x: 0, y: 0 };",
  "export function fail(point: Point = origin): never {",
  "  throw new Error(`bad ${point.x}`);",
  "}",
  "",
].join("\n");
const file = "/virtual/point.ts";
const { code } = transformSync(source, { loader: "ts", format: "esm", sourcemap: "inline", sourcefile: file });
registerTranspiled(file, code);

/** 1-based line and column of the first occurrence of `text` in `where`. */
function positionOf(where: string, text: string): { line: number; column: number } {
  const before = where.slice(0, where.indexOf(text)).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

test("a position in the generated code maps to where the code was written", () => {
  for (const text of ["throw new Error", "const origin", "function fail"]) {
    const generated = positionOf(code, text);
    assert.deepEqual(originalPosition(file, generated.line, generated.column), positionOf(source, text), text);
  }
});

test("the original source comes back from the map", () => {
  assert.equal(originalSource(file), source);
});

test("a file rt did not transpile and that links no map has no original position", () => {
  assert.equal(originalPosition("/virtual/not-registered.ts", 1, 1), undefined);
});
