// The rule that tells a library from a program for F5 (program.ts), as units; the host test in
// extension/test/host/5-debug.test.cjs presses F5 in a library file of a real project.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isLibrary } from "./program.js";

test("a module that only declares and exports is a library", () => {
  for (const text of [
    "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
    'import { x } from "./x";\nexport const scale = 2;\nexport const table = new Map<string, number>();\nexport type T = { a: number };\n',
    "export const f = async (\n  a: number,\n) =>\n  compute(a)\n    .then((v) => v * 2);\nexport interface I {\n  m(): void;\n}\n",
    '"use strict";\nexport default class A {\n  run() {\n    go();\n  }\n}\nexport enum E { A, B }\n',
    "export const label = `n=${count(1)}`;\nexport const pick = cond\n  ? a\n  : b;\n",
  ]) {
    assert.equal(isLibrary(text), true, text);
  }
});

test("a module that does something at its top level, or exports nothing, is a program", () => {
  for (const text of [
    'import { add } from "./lib/math";\nconsole.log(add(1, 2));\n',
    "export function main() {}\nmain();\n",
    "export const a = 1; start();\n",
    "export {};\nawait run();\n",
    "export const x = 1;\nif (x) go();\n",
    "export const x = 1;\n(async () => {})();\n",
    "function helper() {}\nconst y = helper();\n",
    "",
  ]) {
    assert.equal(isLibrary(text), false, text);
  }
});
