import assert from "node:assert/strict";
import { test } from "node:test";
import { hashBytes } from "./hash.js";

test("hashBytes keeps its values (cache keys and entry checksums stay valid across rt builds of one version)", () => {
  // Pinned from the first implementation: lengths 0, 1, 13 and 1001 cover the word loop and the byte tail.
  assert.equal(hashBytes(Buffer.from(""), ""), "a43084cf10918b80");
  assert.equal(hashBytes(Buffer.from("a"), "k"), "ce1f8d16766bfa2f");
  assert.equal(hashBytes(Buffer.from("hello, world\n"), "seed"), "e1dd0d9982fda6a5");
  assert.equal(hashBytes(Buffer.from("x".repeat(1001)), "long"), "cd83c7aef41eb6ca");
  // An unaligned view (a slice of a larger buffer) hashes as its bytes do.
  assert.equal(hashBytes(Buffer.from("_hello, world\n").subarray(1), "seed"), "e1dd0d9982fda6a5");
});
