import assert from "node:assert/strict";
import { test } from "node:test";
import { Sign, sign } from "./math";

test("sign of a negative number", () => assert.equal(sign(-3), Sign.Negative));
test("sign of zero", () => assert.equal(sign(0), Sign.Zero));
