// The scripts suite (scripts.test.mjs, with the rules table script-rules.json) again, with the
// compiled front (dist/rt, runtime/native/) running the scripts itself: one definition of
// behaviour for both. Then what only the front has: RT_NATIVE=0, and the same environment as the Node CLI.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { FIXTURES, NATIVE_FRONT, rt, skipUnlessCI } from "./rt.mjs";

const plain = path.join(FIXTURES, "scripts", "plain");

if (!existsSync(NATIVE_FRONT)) {
  test("the scripts suite through the compiled front", (t) => skipUnlessCI(t, `${NATIVE_FRONT} is not built: npm run build builds it when Go is installed (Debian package golang-go)`));
} else {
  process.env.RT_TEST_FRONT = "native";
  delete process.env.RT_NATIVE;
  await import("./scripts.test.mjs");

  describe("compiled front", () => {
    test("RT_NATIVE=0 hands every invocation to the Node CLI", () => {
      assert.equal(rt(["run", "parent"], { cwd: plain }).stdout, "rt\n");
      assert.equal(rt(["run", "parent"], { cwd: plain, env: { RT_NATIVE: "0" } }).stdout, "node\n");
    });

    test("a script sees the same environment from the front as from the Node CLI", () => {
      const environment = (env) => {
        const result = rt(["run", "printenv"], { cwd: path.join(plain, "nested", "deeper"), env: { RT_TRANSPILER_CACHE_PATH: "same", ...env } });
        assert.equal(result.code, 0, result.stderr);
        return result.stdout.split("\n").filter((line) => !line.startsWith("RT_NATIVE=")).sort();
      };
      assert.deepEqual(environment({}), environment({ RT_NATIVE: "0" }));
    });
  });
}
