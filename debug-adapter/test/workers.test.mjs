// Worker threads as threads of their own: a breakpoint in a worker's TypeScript file stops that
// thread, with its own stack, scopes and evaluation; rt's own inspector thread is not listed.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { DapClient, FIXTURES } from "./dap.mjs";

const DIR = path.join(FIXTURES, "workers");
const WORKER = path.join(DIR, "worker.ts");

test("a breakpoint in a worker thread's .ts file stops that thread (locals, evaluate, a step); threads lists main and the worker; its console output shows; its exit removes the thread", async (t) => {
  const dap = DapClient.start(t);
  await dap.launch({ program: path.join(DIR, "main.ts") }, { breakpoints: { [WORKER]: [5] } });
  const started = await dap.event("thread", (body) => body.reason === "started");
  const stopped = await dap.stopped();
  assert.equal(stopped.threadId, started.threadId);
  assert.notEqual(stopped.threadId, 1);
  const { threads } = await dap.request("threads");
  assert.deepEqual(
    threads.map((thread) => [thread.id, thread.name]),
    [
      [1, "main"],
      [started.threadId, "Worker 1: worker.ts"],
    ],
  );
  const { stackFrames } = await dap.request("stackTrace", { threadId: stopped.threadId });
  assert.deepEqual([stackFrames[0].name, stackFrames[0].source.path, stackFrames[0].line], ["answer", WORKER, 5]);
  const question = await dap.request("evaluate", { expression: "question", frameId: stackFrames[0].id, context: "watch" });
  assert.equal(question.result, '"worker"');
  const { scopes } = await dap.request("scopes", { frameId: stackFrames[0].id });
  const locals = (await dap.request("variables", { variablesReference: scopes[0].variablesReference })).variables;
  assert.deepEqual(
    locals.map((v) => `${v.name}=${v.value}`),
    ['question="worker"', "reply=undefined"],
  );
  await dap.request("next", { threadId: stopped.threadId });
  assert.deepEqual(await dap.stopped().then((s) => [s.reason, s.threadId]), ["step", stopped.threadId]);
  const afterStep = (await dap.request("stackTrace", { threadId: stopped.threadId })).stackFrames[0];
  assert.deepEqual([afterStep.source.path, afterStep.line], [WORKER, 6], "a step in the worker's thread");
  await dap.request("continue", { threadId: stopped.threadId });
  await dap.event("thread", (body) => body.reason === "exited" && body.threadId === started.threadId);
  assert.equal((await dap.event("exited")).exitCode, 0);
  const verified = dap.events.filter((event) => event.event === "breakpoint" && event.body.breakpoint.verified).map((event) => event.body.breakpoint);
  assert.deepEqual(
    verified.map((b) => [b.source.path, b.line]),
    [[WORKER, 5]],
    "the editor's breakpoint is verified by the worker's copy",
  );
  assert.match(dap.output("stdout"), /main got worker: 42/);
  assert.match(dap.output("stdout"), /^worker done$/m, "the worker's console output reaches the Debug Console");
});
