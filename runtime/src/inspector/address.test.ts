// --inspect's value: [[host:]port[/prefix]], loopback unless a host is given.
import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageError } from "../errors.js";
import { isLoopback, parseInspectorAddress } from "./address.js";

for (const [raw, expected] of [
  ["", { host: "127.0.0.1", port: 0 }],
  ["9229", { host: "127.0.0.1", port: 9229 }],
  ["0.0.0.0:9229", { host: "0.0.0.0", port: 9229 }],
  ["127.0.0.1:9229/abc", { host: "127.0.0.1", port: 9229, prefix: "abc" }],
  ["[::1]:9229", { host: "::1", port: 9229 }],
] as const) {
  // Compared as data: an absent prefix may be a missing or an undefined property.
  test(`--inspect=${raw}`, () => assert.deepEqual(JSON.parse(JSON.stringify(parseInspectorAddress("--inspect", raw))), expected));
}

for (const [raw, reason] of [
  ["x:y", /not a host and port/],
  ["70000", /port 70000 is outside 0-65535/],
] as const) {
  test(`--inspect=${raw} is refused with the form it expects`, () => {
    assert.throws(
      () => parseInspectorAddress("--inspect", raw),
      (error: unknown) => error instanceof UsageError && reason.test(error.message) && error.message.includes("expected [[host:]port[/prefix]]"),
    );
  });
}

test("loopback hosts: 127.0.0.0/8 in any spelling the resolver reads, ::1, localhost", () => {
  for (const host of [
    "127.0.0.1",
    "127.1",
    "127.255.0.9",
    "0x7f.1",
    "2130706433",
    "localhost",
    "LocalHost",
    "app.localhost",
    "::1",
    "[::1]",
    "::ffff:127.0.0.1",
  ]) {
    assert.equal(isLoopback(host), true, host);
  }
  for (const host of ["0.0.0.0", "::", "128.0.0.1", "126.255.255.255", "192.168.1.2", "example.com", "127.0.0.1.example.com", "localhost.example", "::2"]) {
    assert.equal(isLoopback(host), false, host);
  }
});
