// Command-line arguments back to their bytes: bytes that are not UTF-8 become lone surrogates,
// one per byte, so arguments that Node decoded to the same U+FFFD stay apart.
import assert from "node:assert/strict";
import { test } from "node:test";
import { exactArguments, surrogateEscape } from "./exact-argv.js";

test("surrogateEscape keeps UTF-8 as text and turns each other byte into U+DC00 + byte", () => {
  const cases: [bytes: number[], text: string][] = [
    [[0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x94, 0x91], "aé€🔑"],
    [[0xef, 0xbf, 0xbd], "\ufffd"], // U+FFFD typed as such is UTF-8
    [[0xff], "\udcff"],
    [[0xfe], "\udcfe"],
    [[0x61, 0xc3], "a\udcc3"], // a sequence cut short
    [[0xc3, 0x41], "\udcc3A"], // a lead byte without its continuation
    [[0xed, 0xa0, 0x80], "\udced\udca0\udc80"], // an encoded surrogate is not UTF-8
    [[0xc0, 0xaf], "\udcc0\udcaf"], // an overlong "/"
  ];
  for (const [bytes, text] of cases) assert.equal(surrogateEscape(Uint8Array.from(bytes)), text, bytes.join(" "));
});

test("exactArguments leaves arguments without U+FFFD alone; without bytes to go by, a U+FFFD counts as a replaced byte", () => {
  assert.deepEqual(exactArguments(["a", "é"]), ["a", "é"]);
  // This process's argv has no U+FFFD: an argument that is not among its arguments has no bytes
  // to go by, and its U+FFFD is taken as a byte that was not UTF-8.
  assert.deepEqual(exactArguments(["x\ufffd"], ["node", "script", "y"]), ["x\udcff"]);
});
