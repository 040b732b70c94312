// Child processes as child sessions: each rt process the debugged program starts (fork, spawn of
// process.execPath, cluster.fork, the `rt` a script started by `rt run` runs) reports in, waits, and is attached through DAP's startDebugging with the same
// breakpoints; a dependency's tool (node_modules) and a process that is not rt are left alone; autoAttachChildProcesses: false opts out.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { DapClient, FIXTURES, REPO } from "./dap.mjs";

const DIR = path.join(FIXTURES, "children");
const MAIN = path.join(DIR, "main.ts");
const CHILD = path.join(DIR, "child.ts");
const RUNS_SCRIPT = path.join(DIR, "runs-script.ts");
const FORK_ONE = path.join(DIR, "fork-one.ts");
// PATH as `rt run`/npm give a program: node_modules/.bin (rt's compiled front) and the Node that runs it first.
const RUN_PATH = [path.join(REPO, "node_modules", ".bin"), path.dirname(process.execPath), process.env.PATH].join(path.delimiter);

test("forked, spawned and cluster.fork rt children stop at a breakpoint set before launch in child.ts, each in a child session; a node_modules tool and the shell child are left alone", async (t) => {
  const dap = DapClient.start(t);
  await dap.launch({ program: MAIN }, { breakpoints: { [CHILD]: [4] } });
  for (const [index, how] of [
    [0, "forked"],
    [1, "spawned"],
    [2, "clustered"],
  ]) {
    const { session, configuration, started } = await dap.childSession(index);
    assert.equal(configuration.request, "attach");
    assert.match(configuration.name, /^child\.ts \[\d+\]$/);
    await started;
    const stopped = await session.stopped();
    assert.equal(stopped.reason, "breakpoint");
    const frame = await session.topFrame();
    assert.deepEqual([frame.name, frame.source.path, frame.line], ["greet", CHILD, 4]);
    assert.equal((await session.request("evaluate", { expression: "greeting", frameId: frame.id, context: "watch" })).result, `"child ${how}"`);
    await session.request("next", { threadId: 1 });
    assert.equal((await session.stopped()).reason, "step");
    // From `return greeting;` back to the caller's line.
    assert.equal((await session.topFrame()).line, 7);
    await session.request("continue", { threadId: 1 });
    await session.event("terminated");
  }
  assert.equal((await dap.event("exited")).exitCode, 0);
  assert.equal(dap.children.length, 3, "no session for the node_modules tool nor for the shell (not rt)");
  // The program's console calls reach the adapter through the debugger, the children's through
  // the inherited stdout pipe: each in order, the two not interleaved in order.
  const lines = dap.output("stdout").split("\n");
  for (const line of [
    "child forked",
    "child spawned",
    "child clustered",
    "tool ran",
    "tool exited 0",
    "not rt",
    "forked exited 0",
    "spawned exited 0",
    "clustered exited 0",
    "shell exited 0",
  ])
    assert.ok(lines.includes(line), `${line} in ${lines}`);
});

test("an editor slow to start a child's session (it answers startDebugging 16 s later, once the session has attached, as VS Code answers it): the child waits for its session and stops at its breakpoint", async (t) => {
  const dap = DapClient.start(t);
  // Longer than the 15 s the adapter gave the answer: it then let the child go, which ran past its
  // breakpoint and had ended when its session came to attach.
  dap.childSessionDelay = 16_000;
  await dap.launch({ program: FORK_ONE }, { breakpoints: { [CHILD]: [4] } });
  const { session, started } = await dap.childSession(0);
  await started;
  const stopped = await session.stopped();
  assert.equal(stopped.reason, "breakpoint");
  assert.deepEqual(await session.topFrame().then((frame) => [frame.name, frame.line]), ["greet", 4]);
  await session.request("continue", { threadId: 1 });
  assert.equal((await dap.event("exited")).exitCode, 0);
  assert.match(dap.output("stdout"), /^child forked\nforked exited 0$/m);
});

test("autoAttachChildProcesses: false leaves the children undebugged: no child session, the program runs through", async (t) => {
  const dap = DapClient.start(t);
  await dap.launch({ program: MAIN, autoAttachChildProcesses: false }, { breakpoints: { [CHILD]: [4] } });
  assert.equal((await dap.event("exited")).exitCode, 0);
  assert.equal(dap.children.length, 0);
  const lines = dap.output("stdout").split("\n");
  assert.ok(lines.includes("child forked") && lines.includes("child spawned"), `the children ran: ${lines}`);
});

test("`rt run <script>` started by the program: the runner (compiled front, then the Node runner) gets no session, the `rt child.ts` its script starts stops at a breakpoint in child.ts in a child session", async (t) => {
  const dap = DapClient.start(t);
  await dap.launch({ program: RUNS_SCRIPT, env: { PATH: RUN_PATH } }, { breakpoints: { [CHILD]: [4] } });
  for (const [index, how] of [
    [0, "scripted"],
    [1, "scripted by node"],
  ]) {
    const { session, configuration, started } = await dap.childSession(index);
    assert.match(configuration.name, /^child\.ts \[\d+\]$/);
    await started;
    assert.equal((await session.stopped()).reason, "breakpoint");
    const frame = await session.topFrame();
    assert.deepEqual([frame.name, frame.source.path, frame.line], ["greet", CHILD, 4]);
    assert.equal((await session.request("evaluate", { expression: "greeting", frameId: frame.id, context: "watch" })).result, `"child ${how}"`);
    await session.request("continue", { threadId: 1 });
    await session.event("terminated");
  }
  assert.equal((await dap.event("exited")).exitCode, 0);
  assert.equal(dap.children.length, 2, "one session per `rt child.ts`, none for the runners");
  const lines = dap.output("stdout").split("\n");
  for (const line of ["child scripted", "scripted exited 0", "child scripted by node", "scripted by node exited 0"])
    assert.ok(lines.includes(line), `${line} in ${lines}`);
});
