// The compatibility suite under rt: real packages from the npm registry (pinned by
// test/compat/package-lock.json, installed here with `npm ci` when the lockfile changed), each case
// run as `rt <case>` with its printed output asserted. Cases rt fails today are `todo`, listed once
// in test/compat/known-failures.mjs with the issue-18 item they belong to.
// `npm run compat` runs the same cases under bun, tsx and node too.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { KNOWN_FAILURES } from "./compat/known-failures.mjs";
import { install, listCases, runCase, runtimes } from "./compat/suite.mjs";

const cases = listCases();
const installError = install();
const skip = installError && !process.env.CI ? `cannot install the suite's packages: ${installError}` : false;

describe("compatibility suite (test/compat) under rt", { concurrency: 2, skip }, () => {
  const rt = runtimes().rt;

  test("the known-failure list names only existing cases", () => {
    const names = new Set(cases.map((c) => c.name));
    assert.deepEqual(
      Object.keys(KNOWN_FAILURES).filter((name) => !names.has(name)),
      [],
    );
  });

  test("the suite's packages installed (npm ci)", () => {
    assert.equal(installError, undefined);
  });

  for (const c of cases) {
    const todo = KNOWN_FAILURES[c.name] ?? false;
    test(c.name, { todo }, async (t) => {
      const result = await runCase(rt, c);
      if (todo && result.ok) t.diagnostic(`passes now: delete "${c.name}" from test/compat/known-failures.mjs`);
      assert.ok(result.ok, `${result.reason}\n${result.stderr.trim().split("\n").slice(0, 15).join("\n")}`);
    });
  }
});
