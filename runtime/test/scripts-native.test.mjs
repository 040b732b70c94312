// The scripts suite (scripts.test.mjs, with the rules table script-rules.json) again, with the
// compiled front (dist/rt, runtime/native/) running the scripts itself: one definition of
// behaviour for both. Then what only the front has: RT_NATIVE=0, and the same environment as the Node CLI.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { FIXTURES, NATIVE_FRONT, rt, skipUnlessCI, tempDir } from "./rt.mjs";

const plain = path.join(FIXTURES, "scripts", "plain");
const pick = ({ code, stdout, stderr }) => ({ code, stdout, stderr });

if (!existsSync(NATIVE_FRONT)) {
  test("the scripts suite through the compiled front", (t) =>
    skipUnlessCI(t, `${NATIVE_FRONT} is not built: npm run build builds it when Go is installed (Debian package golang-go)`));
} else {
  process.env.RT_TEST_FRONT = "native";
  delete process.env.RT_NATIVE;
  await import("./scripts.test.mjs");

  describe("compiled front", () => {
    test("RT_NATIVE=0 hands every invocation to the Node CLI", () => {
      assert.equal(rt(["run", "parent"], { cwd: plain }).stdout, "rt\n");
      assert.equal(rt(["run", "parent"], { cwd: plain, env: { RT_NATIVE: "0" } }).stdout, "node\n");
    });

    test("RT_NODE names the Node to run on (the VS Code extension's launcher names VS Code's own), then leaves the environment", (t) => {
      // A PATH with a shell and printenv but no node.
      const bin = tempDir(t);
      for (const tool of ["bash", "printenv"])
        symlinkSync(spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim(), path.join(bin, tool));
      const env = { PATH: bin, RT_NODE: process.execPath };
      assert.deepEqual(pick(rt(["run", "where"], { cwd: plain, env })), { code: 0, stdout: `${plain}\n`, stderr: "$ pwd\n" });
      const seen = rt(["run", "printenv"], { cwd: plain, env }).stdout.split("\n");
      assert.ok(seen.includes(`npm_node_execpath=${process.execPath}`) && !seen.some((line) => line.startsWith("RT_NODE=")), seen.join("\n"));
      assert.match(rt(["run"], { cwd: plain, env }).stdout, /\d+ scripts in package\.json\n$/);
      assert.deepEqual(pick(rt(["run", "where"], { cwd: plain, env: { PATH: bin } })), {
        code: 127,
        stdout: "",
        stderr: "rt: node: not found on PATH (rt runs on Node.js >= 22.15)\n",
      });
    });

    /** What `rt ...args` in `cwd` prints (its lines sorted, the path's own RT_NATIVE left out), from the front and from the Node CLI. */
    const environmentOnBothPaths = (args, cwd, prefix) => {
      const environment = (env) => {
        const result = rt(args, { cwd, env: { RT_TRANSPILER_CACHE_PATH: "same", ...env } });
        assert.equal(result.code, 0, result.stderr);
        return result.stdout
          .split("\n")
          .filter((line) => !line.startsWith(`${prefix}RT_NATIVE=`))
          .sort();
      };
      return [environment({}), environment({ RT_NATIVE: "0" })];
    };

    test("a script sees the same environment from the front as from the Node CLI", () => {
      const [front, nodeCli] = environmentOnBothPaths(["run", "printenv"], path.join(plain, "nested", "deeper"), "");
      assert.deepEqual(front, nodeCli);
    });

    test("a workspace package's script sees the same environment from the front as from the Node CLI", () => {
      const [front, nodeCli] = environmentOnBothPaths(["--filter", "core", "env"], path.join(FIXTURES, "scripts", "workspace-rules", "apps"), "core env: ");
      assert.deepEqual(front, nodeCli);
    });
  });
}
