import assert from "node:assert/strict";
import { test } from "node:test";
import { hashBytes } from "./hash.js";

test("hashBytes: stable values, the seed and every byte count, a view at any offset hashes as its bytes", () => {
  // Pinned: a change of the function changes every cache key and entry checksum (all miss once).
  assert.equal(hashBytes(Buffer.from(""), ""), "a43084cf10918b80");
  assert.equal(hashBytes(Buffer.from("a"), "k"), "ce1f8d16766bfa2f");
  assert.equal(hashBytes(Buffer.from("hello, world\n"), "seed"), "8967b692a297aae2");
  assert.equal(hashBytes(Buffer.from("x".repeat(1001)), "long"), "b0c6937128c7e6b6");
  assert.notEqual(hashBytes(Buffer.from("hello, world\n"), "seed2"), "8967b692a297aae2");
  assert.notEqual(hashBytes(Buffer.from("x".repeat(1000)), "long"), "b0c6937128c7e6b6");
  // Not a multiple of 4 from its buffer's start (a Int32Array view there would throw).
  assert.equal(hashBytes(Buffer.from("_hello, world\n").subarray(1), "seed"), "8967b692a297aae2");
});
