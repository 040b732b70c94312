// The spawn fallback of replaceProcess (what Windows, whose Node has no execve, gets), run here
// by passing null for execve: the child's output, exit code and signal become the parent's.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const REPLACE = fileURLToPath(new URL("./replace.ts", import.meta.url));

/** A Node process that hands itself over to `node -e child` through the fallback. */
function handOver(child: string, input?: string) {
  const parent = `require(${JSON.stringify(REPLACE)}).replaceProcess([process.execPath, "-e", ${JSON.stringify(child)}], null);
console.log("the parent carries on after handing over");`;
  return spawnSync(process.execPath, ["--require", "rt-runtime/register", "-e", parent], { encoding: "utf8", input });
}

test("without execve the child runs on the same stdio and its exit code is the parent's", () => {
  const result = handOver(`process.stdin.pipe(process.stdout); process.stdin.on("end", () => { console.error("err"); process.exitCode = 7; })`, "in\n");
  assert.equal(result.stdout, "the parent carries on after handing over\nin\n");
  assert.equal(result.stderr, "err\n");
  assert.equal(result.status, 7);
});

test("without execve a child killed by a signal kills the parent with it", { skip: process.platform === "win32" }, () => {
  const result = handOver(`process.kill(process.pid, "SIGTERM")`);
  assert.equal(result.signal, "SIGTERM");
});

test("without execve a signal the parent receives reaches the child", { skip: process.platform === "win32" }, () => {
  const child = `process.on("SIGTERM", () => { console.log("child got SIGTERM"); process.exit(3); }); console.log("ready"); setInterval(() => {}, 1000)`;
  const parent = `require(${JSON.stringify(REPLACE)}).replaceProcess([process.execPath, "-e", ${JSON.stringify(child)}], null);
setTimeout(() => process.kill(process.pid, "SIGTERM"), 500);`;
  const result = spawnSync(process.execPath, ["--require", "rt-runtime/register", "-e", parent], { encoding: "utf8", timeout: 10_000 });
  assert.equal(result.stdout, "ready\nchild got SIGTERM\n");
  assert.equal(result.status, 3);
});

test("without execve a program that cannot start is one line and exit code 126", () => {
  const result = spawnSync(
    process.execPath,
    ["--require", "rt-runtime/register", "-e", `require(${JSON.stringify(REPLACE)}).replaceProcess(["/nonexistent/rt-node"], null)`],
    {
      encoding: "utf8",
    },
  );
  assert.equal(result.stderr, "rt: cannot start /nonexistent/rt-node: spawn /nonexistent/rt-node ENOENT\n");
  assert.equal(result.status, 126);
});
