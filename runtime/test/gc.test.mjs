// rt.gc(): always in the rt namespace, working without --expose-gc (as Bun.gc).
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES, runOk } from "./rt.mjs";

const DIR = path.join(FIXTURES, "rt-gc");

test("rt.gc(true) collects unreachable objects without --expose-gc and adds no global gc", () => {
  assert.deepEqual(JSON.parse(runOk(DIR, ["collect.ts"])), { collected: true, sameFunction: true, globalGc: "undefined" });
  // The same program without the call keeps the array: the collection above is rt.gc's doing.
  assert.equal(JSON.parse(runOk(DIR, ["collect.ts", "--no-gc"])).collected, false);
});
