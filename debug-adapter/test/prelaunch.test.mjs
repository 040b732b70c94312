// A program started ahead of its launch (what the extension does for Debug File while VS Code sets
// the session up): the launch that asks for the same start takes the waiting process over, one
// that asks for another start ends it, and one the editor gave up on is ended. The adapter runs in
// this process, as VS Code's inline adapter does, so the test and the session share it.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";
import { ADAPTER, DapClient, FIXTURES, RT_BIN } from "./dap.mjs";

const adapter = createRequire(import.meta.url)(path.join(path.dirname(ADAPTER), "index.cjs"));
const PROGRAM = path.join(FIXTURES, "prelaunch", "pid.ts");
const CWD = path.dirname(PROGRAM);

/** Process ids whose command line names the fixture (rt runs it: `node rt.cjs --inspect-wait=… pid.ts …`). */
function running() {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "latin1").split("\0").includes(PROGRAM)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

async function until(check, what, timeout = 15_000) {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - started > timeout) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const configuration = (who) => ({ type: "rt", request: "launch", name: "pid", program: PROGRAM, cwd: CWD, args: [who] });

/** Launches `who` with a breakpoint on the console.log line; returns the pid the program printed. */
async function launchToEnd(t, who) {
  const dap = DapClient.inProcess(t, adapter, { runtimeExecutable: RT_BIN });
  await dap.start("launch", configuration(who), { breakpoints: { [PROGRAM]: [2] } });
  await dap.stopped();
  assert.equal((await dap.topFrame()).line, 2);
  await dap.request("continue", { threadId: 1 });
  assert.equal((await dap.event("exited")).exitCode, 0);
  await dap.event("terminated");
  const printed = /pid (\d+) for (\w+)/.exec(dap.output("stdout"));
  assert.ok(printed, `the program printed its pid:\n${dap.output()}`);
  assert.equal(printed[2], who);
  return Number(printed[1]);
}

test("the launch that asks for the program started ahead takes that process over: one process, the breakpoint hit, its output", async (t) => {
  assert.deepEqual(running(), [], "no fixture process before the test");
  adapter.prelaunch(configuration("first"), RT_BIN);
  const [early] = await until(() => running().length && running(), "the program to start ahead");
  assert.equal(await launchToEnd(t, "first"), early, "the program that ran is the one started ahead");
  await until(() => running().length === 0, "no fixture process left");
});

test("a launch that asks for another start ends the program started ahead and starts its own", async (t) => {
  adapter.prelaunch(configuration("foreseen"), RT_BIN);
  const [early] = await until(() => running().length && running(), "the program to start ahead");
  const ran = await launchToEnd(t, "asked");
  assert.notEqual(ran, early);
  // Well before it would end unclaimed (15 s).
  await until(() => running().length === 0, "the program started ahead to be ended", 5000);
});

test("a program started ahead for a session that did not start is ended; a script or a run without debugging is not started ahead", async () => {
  adapter.prelaunch(configuration("never"), RT_BIN);
  await until(() => running().length, "the program to start ahead");
  adapter.discardPrelaunched();
  await until(() => running().length === 0, "the program started ahead to be ended", 5000);

  // Nothing of these may run before the session: a script's lifecycle hooks would, and noDebug runs the program at once.
  adapter.prelaunch({ ...configuration("no debug"), noDebug: true }, RT_BIN);
  adapter.prelaunch({ type: "rt", request: "launch", name: "script", script: "start", cwd: CWD }, RT_BIN);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.deepEqual(running(), []);
  adapter.discardPrelaunched();
});
