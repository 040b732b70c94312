// Arguments after a script's name are appended as shell words: each one reaches the program
// exactly as given, whatever it contains.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { appendArguments } from "./shell.js";

test("no arguments leave the command as it is", () => {
  assert.equal(appendArguments("tsc -b", [], "system"), "tsc -b");
  assert.equal(appendArguments("tsc -b", [], "rt"), "tsc -b");
});

test("each argument is one single-quoted word", () => {
  assert.equal(appendArguments("tsc -b", ["a b", "it's", "$HOME"], "system"), `tsc -b 'a b' 'it'"'"'s' '$HOME'`);
});

test("a POSIX shell reads each appended argument back unchanged", () => {
  const args = ["plain", "two words", "it's", "$HOME", "`id`", "a\nb", "*", "", "--flag=x y", "\\"];
  const command = appendArguments("printf '%s\\0'", args, "system");
  assert.deepEqual(execFileSync("sh", ["-c", command], { encoding: "utf8" }).split("\0").slice(0, -1), args);
});
