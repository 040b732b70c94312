// The panel's input-box rules, as units (the host test in extension/test/host/3-secrets.test.cjs
// presses Enter on the real boxes): rt.secrets' own name checks, and no empty value.
import assert from "node:assert/strict";
import { test } from "node:test";
import { EMPTY_VALUE, partProblem, valueProblem } from "./input.js";

test("a service or name is refused with rt.secrets' own message, so the panel and the API agree", () => {
  assert.equal(partProblem("service")("my-cli"), undefined);
  assert.equal(partProblem("name")("\ufffd"), undefined); // U+FFFD itself is UTF-8
  assert.equal(partProblem("service")(""), "service must not be empty");
  assert.equal(partProblem("name")("a\0b"), "name must not contain NUL characters (the credential store would cut it there)");
  assert.equal(partProblem("name")("x".repeat(256)), "name is 256 characters long; the limit is 255");
  assert.equal(
    partProblem("name")("a\ud800"),
    "name is not valid UTF-8 text (it has bytes that are not UTF-8, or a lone surrogate), so the credential store would not keep it exactly: give the name as UTF-8 text",
  );
});

test("an empty value is refused with what to do instead; any other value, even whitespace, is taken", () => {
  assert.equal(valueProblem(""), EMPTY_VALUE);
  assert.match(EMPTY_VALUE, /Delete Secret.*rt secrets set --allow-empty/);
  for (const value of [" ", "\n", "s3cret"]) assert.equal(valueProblem(value), undefined);
});
