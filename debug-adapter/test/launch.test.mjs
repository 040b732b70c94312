// The adapter driven as an editor drives it (DAP over stdio) against real rt processes on the
// fixtures in test/fixtures/debug: launch, breakpoints through source maps (also in files loaded
// later), stacks, scopes and variables (golden files), stepping, evaluation, output, lifecycle.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { DapClient, FIXTURES } from "./dap.mjs";
import { matchGolden } from "./golden.mjs";

const DIR = path.join(FIXTURES, "basic");
const APP = path.join(DIR, "app.ts");
const LAZY = path.join(DIR, "lazy.ts");
const VIEW = path.join(DIR, "view.tsx");

/** The frames a user reads (rt's and Node's own frames are marked subtle). */
async function userStack(dap) {
  const { stackFrames } = await dap.request("stackTrace", { threadId: 1 });
  return stackFrames.filter((frame) => frame.presentationHint !== "subtle");
}

async function variablesOf(dap, reference, extra = {}) {
  return (await dap.request("variables", { variablesReference: reference, ...extra })).variables;
}

async function scopeVariables(dap, frameId, name) {
  const { scopes } = await dap.request("scopes", { frameId });
  const scope = scopes.find((candidate) => candidate.name === name);
  return variablesOf(dap, scope.variablesReference);
}

describe("launch a program", () => {
  test("breakpoints in app.ts and in lazily imported lazy.ts and view.tsx: verified with their actual lines, hit in order", async (t) => {
    const dap = DapClient.start(t);
    const set = await dap.launch({ program: APP }, { breakpoints: { [APP]: [13, 22], [LAZY]: [5], [VIEW]: [7] } });
    // Not loaded when set: unverified until the file loads (then a `breakpoint` event).
    assert.deepEqual(
      Object.values(set)
        .flat()
        .map((b) => b.verified),
      [false, false, false, false],
    );

    const changed = () => dap.events.filter((event) => event.event === "breakpoint").map((event) => event.body.breakpoint);
    const stops = [];
    for (let i = 0; i < 4; i++) {
      const stopped = await dap.stopped();
      const [top] = await userStack(dap);
      stops.push(`${stopped.reason} ${top.name} ${top.source.name}:${top.line}:${top.column}`);
      await dap.request("continue", { threadId: 1 });
    }
    assert.deepEqual(stops, [
      "breakpoint main app.ts:23:22",
      "breakpoint distance app.ts:13:24",
      "breakpoint shout lazy.ts:5:21",
      "breakpoint render view.tsx:7:19",
    ]);
    const exited = await dap.event("exited");
    assert.equal(exited.exitCode, 0);
    await dap.event("terminated");
    const verified = new Map(
      changed()
        .filter((b) => b.verified)
        .map((b) => [`${path.basename(b.source.path)}:${b.id}`, b.line]),
    );
    // Line 22 (the loop's closing brace) has no code: the breakpoint moved to line 23.
    assert.deepEqual(
      [...verified.values()].sort((a, b) => a - b),
      [5, 7, 13, 23],
    );
  });

  test("a breakpoint in a large file (its source map beside rt's cache entry) stops on its line, transpiled now and from the cache", async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), "rt-dap-large-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const filler = Array.from({ length: 1500 }, (_, i) => `export const value${i}: Readonly<Record<string, number>> = { n: ${i} };`);
    const large = path.join(dir, "large.ts");
    writeFileSync(large, `${filler.join("\n")}\nexport function sum(a: number, b: number): number {\n  const total: number = a + b;\n  return total;\n}\n`);
    const main = path.join(dir, "main.ts");
    writeFileSync(main, 'import { sum } from "./large.ts";\nconsole.log(sum(1, 2));\n');
    for (const run of ["transpiled now", "from the cache"]) {
      const dap = DapClient.start(t);
      const env = { RT_TRANSPILER_CACHE_PATH: path.join(dir, "cache") };
      await dap.launch({ program: main, cwd: dir, env }, { breakpoints: { [large]: [1503] } });
      const stopped = await dap.stopped();
      const frame = await dap.topFrame();
      assert.deepEqual([stopped.reason, frame.source.path, frame.line], ["breakpoint", large, 1503], run);
      await dap.request("continue", { threadId: 1 });
      assert.equal((await dap.event("exited")).exitCode, 0, run);
      assert.match(dap.output("stdout"), /^3$/m, run);
    }
  });

  test("a CommonJS file (no import/export): breakpoints in its top-level code are set before it runs, the one on line 1 inside Node's wrapper", async (t) => {
    const SCRIPT = path.join(FIXTURES, "commonjs", "script.ts");
    const dap = DapClient.start(t);
    await dap.launch({ program: SCRIPT }, { breakpoints: { [SCRIPT]: [1, 5] } });
    await dap.stopped();
    assert.deepEqual(await dap.topFrame().then((frame) => [frame.source.path, frame.line]), [SCRIPT, 1]);
    // Stopped on the first statement itself, not before the module started: a step stays in the file.
    await dap.request("next", { threadId: 1 });
    await dap.stopped();
    assert.deepEqual(await dap.topFrame().then((frame) => [frame.source?.path, frame.line]), [SCRIPT, 4]);
    await dap.request("continue", { threadId: 1 });
    await dap.stopped();
    assert.deepEqual(await dap.topFrame().then((frame) => [frame.source.path, frame.line]), [SCRIPT, 5]);
    await dap.request("continue", { threadId: 1 });
    assert.equal((await dap.event("exited")).exitCode, 0);
    assert.match(dap.output("stdout"), /^top-level 6\n$/m);
  });

  test("stopOnEntry in a CommonJS file stops on its first statement, inside Node's wrapper, and `next` walks its lines", async (t) => {
    const SCRIPT = path.join(FIXTURES, "commonjs", "script.ts");
    const dap = DapClient.start(t);
    await dap.launch({ program: SCRIPT, stopOnEntry: true });
    assert.equal((await dap.stopped()).reason, "entry");
    const lines = [(await dap.topFrame()).line];
    for (const _ of [1, 2]) {
      await dap.request("next", { threadId: 1 });
      await dap.stopped();
      const frame = await dap.topFrame();
      assert.equal(frame.source?.path, SCRIPT);
      lines.push(frame.line);
    }
    assert.deepEqual(lines, [1, 4, 5]);
    await dap.request("continue", { threadId: 1 });
    assert.equal((await dap.event("exited")).exitCode, 0);
  });

  test("stopOnEntry in a CommonJS file that starts with a function declaration stops on the first statement, before any code ran", async (t) => {
    const SCRIPT = path.join(FIXTURES, "commonjs", "greet.ts");
    const dap = DapClient.start(t);
    await dap.launch({ program: SCRIPT, stopOnEntry: true });
    assert.equal((await dap.stopped()).reason, "entry");
    const frame = await dap.topFrame();
    // Not inside greet (line 2) on its first call: the wrapper's own first statement, as Node stops.
    assert.deepEqual([frame.source?.path, frame.name, frame.line], [SCRIPT, "<anonymous>", 6]);
    // Line 6 has not run: `who` is still in its temporal dead zone.
    assert.match((await dap.raw("evaluate", { expression: "who", frameId: frame.id, context: "watch" })).message, /Cannot access 'who'/);
    assert.equal(dap.output("stdout"), "");
    await dap.request("continue", { threadId: 1 });
    assert.equal((await dap.event("exited")).exitCode, 0);
    assert.equal(dap.output("stdout"), "hello world\n");
  });

  test("stack trace, scopes and variables (golden), paging of a 250-item array and a Map", async (t) => {
    const dap = DapClient.start(t);
    await dap.launch({ program: APP }, { breakpoints: { [APP]: [13] } });
    await dap.stopped();
    const frames = await userStack(dap);
    matchGolden("stack-distance", frames);
    const { stackFrames: all } = await dap.request("stackTrace", { threadId: 1 });
    assert.ok(
      all.length > frames.length && all.slice(frames.length).every((frame) => frame.presentationHint === "subtle" && frame.source.name.startsWith("node:")),
      "Node's own frames come last, dimmed",
    );
    const { scopes } = await dap.request("scopes", { frameId: frames[0].id });
    matchGolden(
      "scopes-distance",
      scopes.map(({ name, expensive, presentationHint, line }) => ({ name, expensive, presentationHint, line })),
    );
    const local = await variablesOf(dap, scopes[0].variablesReference);
    const module = await variablesOf(dap, scopes.find((scope) => scope.name === "Module").variablesReference);
    const a = await variablesOf(dap, local.find((v) => v.name === "a").variablesReference);
    matchGolden("variables-distance", { local, module, a });

    const numbers = module.find((v) => v.name === "numbers");
    assert.equal(numbers.indexedVariables, 250);
    const page = await variablesOf(dap, numbers.variablesReference, { filter: "indexed", start: 100, count: 3 });
    assert.deepEqual(
      page.map((v) => [v.name, v.value, v.evaluateName]),
      [
        ["100", "200", "numbers[100]"],
        ["101", "202", "numbers[101]"],
        ["102", "204", "numbers[102]"],
      ],
    );
    const named = await variablesOf(dap, numbers.variablesReference, { filter: "named" });
    assert.ok(named.some((v) => v.name === "length" && v.value === "250"));
    assert.ok(!named.some((v) => /^\d+$/.test(v.name)), "indexed items are paged, not listed by name");
    const table = module.find((v) => v.name === "table");
    const entries = (await variablesOf(dap, table.variablesReference)).find((v) => v.name === "[[Entries]]");
    const pairs = await variablesOf(dap, entries.variablesReference);
    assert.deepEqual(
      pairs.filter((v) => /^\d+$/.test(v.name)).map((v) => v.value),
      ['{"one" => 1}', '{"two" => 2}'],
    );
  });

  test("a client that takes invalidated events is asked once, after its first scopes, to fetch the stack again (VS Code's Variables view then opens Local)", async (t) => {
    const dap = DapClient.start(t);
    await dap.launch({ program: APP }, { breakpoints: { [APP]: [13] }, capabilities: { supportsInvalidatedEvent: true } });
    await dap.stopped();
    const invalidated = () => dap.events.filter((event) => event.event === "invalidated");
    const frame = await dap.topFrame();
    assert.equal(invalidated().length, 0, "nothing before the first scopes");
    await dap.request("scopes", { frameId: frame.id });
    const body = await dap.event("invalidated");
    assert.deepEqual(body, { areas: ["stacks"], threadId: 1 });
    // The client fetches again; the stop is unchanged and no further refresh comes.
    const again = await dap.topFrame();
    assert.equal(again.line, frame.line);
    await dap.request("scopes", { frameId: again.id });
    await dap.request("continue", { threadId: 1 });
    await dap.event("terminated");
    assert.equal(invalidated().length, 1);
  });

  test("a frame without a file (Node's internals): its text comes by the frame's sourceReference", async (t) => {
    const dap = DapClient.start(t);
    await dap.launch({ program: APP }, { breakpoints: { [APP]: [13] } });
    await dap.stopped();
    const { stackFrames } = await dap.request("stackTrace", { threadId: 1 });
    const internal = stackFrames.find((frame) => frame.source?.sourceReference);
    assert.match(internal.source.name, /^node:internal\//);
    const { content } = await dap.request("source", { source: internal.source, sourceReference: internal.source.sourceReference });
    assert.match(content, /^'use strict';/);
    assert.ok(content.split("\n").length >= internal.line, "the frame's line is in the text");
    await dap.request("continue", { threadId: 1 });
    assert.equal((await dap.event("exited")).exitCode, 0);
  });

  test("conditional and hit-count breakpoints, logpoints with the breakpoint's location", async (t) => {
    const dap = DapClient.start(t);
    const set = await dap.launch(
      { program: APP },
      {
        breakpoints: {
          [APP]: [
            { line: 21, hitCondition: "4" },
            { line: 24, logMessage: "far is {far.x},{far.y} `ok` \\" },
            { line: 14, condition: "dx === 3 && dy === 4" },
            { line: 12, hitCondition: "every other" },
          ],
        },
      },
    );
    assert.match(set[APP][3].message, /^invalid hit count "every other": use a number/);
    await dap.stopped();
    let frame = await dap.topFrame();
    assert.equal(frame.line, 21);
    assert.deepEqual(
      (await scopeVariables(dap, frame.id, "Block")).map((v) => `${v.name}=${v.value}`),
      ["i=3"],
    );
    await dap.request("continue", { threadId: 1 });
    await dap.stopped();
    frame = await dap.topFrame();
    assert.equal(`${frame.name}:${frame.line}`, "distance:14");
    const log = dap.events.find((event) => event.event === "output" && event.body.output.startsWith("far is"));
    assert.deepEqual([log.body.output, log.body.source.path, log.body.line], ["far is 3,4 `ok` \\\n", APP, 24]);
    await dap.request("continue", { threadId: 1 });
    await dap.event("terminated");
  });

  test("stepping, evaluate for hover/watch/repl, completions, setVariable and $returnValue after stepping out", async (t) => {
    const dap = DapClient.start(t);
    await dap.launch({ program: APP }, { breakpoints: { [APP]: [12] } });
    await dap.stopped();
    let frame = await dap.topFrame();
    assert.equal(frame.line, 12);
    await dap.request("next", { threadId: 1 });
    assert.equal((await dap.stopped()).reason, "step");
    frame = await dap.topFrame();
    assert.deepEqual([frame.line, frame.column], [13, 24]);
    assert.equal((await dap.request("evaluate", { expression: "dx * 10", frameId: frame.id, context: "watch" })).result, "30");
    assert.equal((await dap.request("evaluate", { expression: "b", frameId: frame.id, context: "hover" })).result, "{x: 3, y: 4}");
    const sideEffect = await dap.raw("evaluate", { expression: "globalThis.mutated = 1", frameId: frame.id, context: "hover" });
    assert.equal(sideEffect.success, false, "hover never runs code with side effects");
    const { scopes } = await dap.request("scopes", { frameId: frame.id });
    const set = await dap.request("setVariable", { variablesReference: scopes[0].variablesReference, name: "dx", value: "6 + 2" });
    assert.equal(set.value, "8");
    const completions = await dap.request("completions", { text: "Math.sq", column: 8, frameId: frame.id });
    assert.ok(completions.targets.some((item) => item.label === "sqrt"));
    const scopeNames = await dap.request("completions", { text: "or", column: 3, frameId: frame.id });
    assert.ok(scopeNames.targets.some((item) => item.label === "origin"));
    await dap.request("stepOut", { threadId: 1 });
    await dap.stopped();
    frame = await dap.topFrame();
    // Out of `const d = distance(origin, far);`: V8 stops at the caller's next statement.
    assert.equal(`${frame.name}:${frame.line}`, "main:25");
    // dx was set to 8, dy is 4: the function returned sqrt(80).
    assert.equal((await dap.request("evaluate", { expression: "$returnValue", frameId: frame.id, context: "watch" })).result, String(Math.sqrt(80)));
    const repl = await dap.request("evaluate", { expression: "let fromRepl = far.x + far.y; fromRepl", frameId: frame.id, context: "repl" });
    assert.equal(repl.result, "7");
    // Into `console.log(…)`, then into `await import("./lazy.ts")`: Node's and rt's code (the
    // console, the module loader, rt's transpiler cache) is stepped through, not stopped in.
    for (const line of [26, 27]) {
      await dap.request("stepIn", { threadId: 1 });
      await dap.stopped();
      frame = await dap.topFrame();
      assert.deepEqual([frame.source?.path, `${frame.name}:${frame.line}`], [APP, `main:${line}`]);
    }
    await dap.request("continue", { threadId: 1 });
    await dap.event("terminated");
  });

  test("stepOut while stopped on a return line stops in the caller, with $returnValue", async (t) => {
    const dap = DapClient.start(t);
    // Line 15 has no code: the breakpoint lands on line 14's return position, where V8 holds the value.
    await dap.launch({ program: APP }, { breakpoints: { [APP]: [15] } });
    await dap.stopped();
    let frame = await dap.topFrame();
    assert.equal(`${frame.name}:${frame.line}`, "distance:14");
    await dap.request("stepOut", { threadId: 1 });
    assert.equal((await dap.stopped()).reason, "step");
    frame = await dap.topFrame();
    assert.equal(`${frame.name}:${frame.line}`, "main:25");
    assert.equal((await dap.request("evaluate", { expression: "$returnValue", frameId: frame.id, context: "watch" })).result, "5");
    await dap.request("continue", { threadId: 1 });
    await dap.event("terminated");
  });

  test("pause stops in the program's own code, not in Node's timers that call it", async (t) => {
    const TICKER = path.join(DIR, "ticker.ts");
    const dap = DapClient.start(t);
    await dap.launch({ program: TICKER });
    await dap.event("output", (body) => body.output?.includes("ticking"));
    for (const _ of [1, 2]) {
      // Between two ticks the program is idle: V8 stops first in Node's timer code.
      await dap.request("pause", { threadId: 1 });
      assert.equal((await dap.stopped()).reason, "pause");
      const frame = await dap.topFrame();
      assert.deepEqual([frame.source?.path, frame.line], [TICKER, 4]);
      await dap.request("continue", { threadId: 1 });
    }
    await dap.request("disconnect", { terminateDebuggee: true });
  });

  test("output: console.* with source locations and expandable objects, stderr, raw stdout, nothing dropped", async (t) => {
    const dap = DapClient.start(t);
    await dap.launch({ program: APP });
    await dap.event("terminated");
    // Console calls (from the debugger, in call order) and the process's own writes (from its
    // pipes) travel apart: each kind is in order, the two are not interleaved.
    const outputs = dap.events.filter((event) => event.event === "output" && event.body.category !== "console");
    const line = ({ body }) =>
      `${body.category} ${JSON.stringify(body.output)}${body.source ? ` ${path.basename(body.source.path)}:${body.line}:${body.column}` : ""}${body.variablesReference ? " (expandable)" : ""}`;
    const fromConsole = outputs.filter((event) => event.body.source).map(line);
    const fromPipes = outputs.filter((event) => !event.body.source).map(line);
    matchGolden("output-app", [...fromConsole, "-- the process's own stdout/stderr --", ...fromPipes].join("\n"));
    const start = dap.events.find((event) => event.event === "output" && event.body.output.startsWith("start"));
    const args = await variablesOf(dap, start.body.variablesReference);
    assert.deepEqual(
      args.map((v) => v.value),
      ['"start"', "{answer: 42}"],
    );
  });

  test("output: console.group, console.assert and console.trace as Node prints them, format specifiers applied, the trace in original positions", async (t) => {
    const TRACES = path.join(DIR, "traces.ts");
    const dap = DapClient.start(t);
    await dap.launch({ program: TRACES });
    await dap.event("terminated");
    const outputs = dap.events.filter((event) => event.event === "output" && event.body.source).map((event) => event.body);
    assert.deepEqual(
      outputs.map((body) => [
        body.category,
        body.group,
        body.group === "end" ? "" : body.output.split("\n")[0],
        `${path.basename(body.source.path)}:${body.line}`,
      ]),
      [
        ["stdout", "start", "outer", "traces.ts:6"],
        ["stderr", undefined, "Assertion failed: math is broken", "traces.ts:7"],
        ["stderr", undefined, "Trace: at 7", "traces.ts:3"],
        ["stdout", "end", "", "traces.ts:9"],
        ["stdout", undefined, "42% done, {ok: true}", "traces.ts:10"],
      ],
    );
    assert.deepEqual(outputs[2].output.split("\n").slice(1, 3), [`    at report (${TRACES}:3:11)`, `    at <anonymous> (${TRACES}:8:1)`]);
  });

  test("stopOnEntry stops on the program's first statement; exception breakpoints: all, then uncaught only", async (t) => {
    const dap = DapClient.start(t);
    await dap.launch({ program: APP, stopOnEntry: true });
    assert.equal((await dap.stopped()).reason, "entry");
    const frame = await dap.topFrame();
    assert.deepEqual([frame.source.path, frame.line], [APP, 7]);
    await dap.request("continue", { threadId: 1 });
    await dap.event("terminated");

    const THROWS = path.join(DIR, "throws.ts");
    const all = DapClient.start(t);
    // A cold transpiler cache: rt's cache read throws (and catches) ENOENT inside node:fs before
    // the program runs; the first stop must still be the program's own exception.
    const coldCache = mkdtempSync(path.join(tmpdir(), "rt-adapter-cache-"));
    t.after(() => rmSync(coldCache, { recursive: true, force: true }));
    await all.launch({ program: THROWS, env: { RT_TRANSPILER_CACHE_PATH: coldCache } }, { exceptionFilters: ["all"] });
    const caught = await all.stopped();
    assert.deepEqual([caught.reason, caught.text], ["exception", "TypeError: caught one"]);
    assert.equal((await all.topFrame()).line, 3);
    const info = await all.request("exceptionInfo", { threadId: 1 });
    assert.deepEqual([info.exceptionId, info.description], ["TypeError", "TypeError: caught one"]);
    await all.request("continue", { threadId: 1 });
    assert.equal((await all.stopped()).text, "RangeError: nobody catches this");
    await all.request("continue", { threadId: 1 });
    assert.equal((await all.event("exited")).exitCode, 1);

    const uncaught = DapClient.start(t);
    await uncaught.launch({ program: THROWS }, { exceptionFilters: ["uncaught"] });
    const stop = await uncaught.stopped();
    assert.equal(stop.text, "RangeError: nobody catches this");
    const top = await uncaught.topFrame();
    assert.deepEqual([top.line, top.column], [14, 3]);
    await uncaught.request("continue", { threadId: 1 });
    await uncaught.event("terminated");
    assert.match(uncaught.output("stderr"), /RangeError: nobody catches this/);
  });

  test("terminate stops the program (SIGTERM); restart starts it again with the same breakpoints", async (t) => {
    const FOREVER = path.join(DIR, "forever.ts");
    const dap = DapClient.start(t);
    await dap.launch({ program: FOREVER }, { breakpoints: { [FOREVER]: [5] } });
    await dap.stopped();
    await dap.request("restart", {});
    const again = await dap.stopped();
    assert.equal(again.reason, "breakpoint");
    assert.equal((await dap.topFrame()).line, 5);
    await dap.request("setBreakpoints", { source: { path: FOREVER }, breakpoints: [] });
    await dap.request("continue", { threadId: 1 });
    await dap.event("output", (body) => body.output === "ticking\n");
    await dap.request("terminate", {});
    await dap.event("terminated");
    assert.match(dap.output("stdout"), /stopped after SIGTERM/);
  });
});
