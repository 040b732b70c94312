// Launch variants and attach, driven over DAP against real rt processes: a package.json script,
// the integrated terminal (runInTerminal), watch mode reattaching after a restart, attach by URL
// and by port, and the bad inputs that must answer with an error the user can act on, in time.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { ADAPTER, DapClient, FIXTURES, RT_BIN } from "./dap.mjs";
import { freePort } from "../../test/support/servers.mjs";

const DIR = path.join(FIXTURES, "basic");
const APP = path.join(DIR, "app.ts");

function tempCopy(t) {
  const dir = mkdtempSync(path.join(tmpdir(), "rt-dap-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(DIR, dir, { recursive: true });
  return dir;
}

/** `rt --inspect-wait=<address> file` started by hand, as a user would before attaching. */
function startRt(t, args, cwd) {
  const child = spawn(process.execPath, [RT_BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
  t.after(() => child.kill("SIGKILL"));
  const output = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (chunk) => (output.stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => (output.stderr += chunk));
  const listening = new Promise((resolve) => child.stderr.on("data", () => output.stderr.includes("Listening:") && resolve()));
  const exited = new Promise((resolve) => child.on("close", (code) => resolve(code)));
  /** SIGTERM, then SIGKILL if it is still there after 5 s: a test never waits forever. */
  const stop = async () => {
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  return { child, output, listening, exited, stop };
}

describe("launch variants", () => {
  test("a package.json script: `rt run start` runs, the rt it starts is debugged", async (t) => {
    const dap = DapClient.start(t);
    await dap.launch({ script: "start", cwd: DIR }, { breakpoints: { [APP]: [13] } });
    await dap.stopped();
    const frame = await dap.topFrame();
    assert.deepEqual([frame.name, frame.source.path, frame.line], ["distance", APP, 13]);
    await dap.request("continue", { threadId: 1 });
    assert.equal((await dap.event("exited")).exitCode, 0);
    assert.match(dap.output("stderr"), /\$ rt app\.ts/, "rt run echoes the script");
    assert.match(dap.output("stdout"), /distance 5 total 10/);
  });

  test("console: integratedTerminal starts rt through runInTerminal; console calls still reach the Debug Console", async (t) => {
    const dap = DapClient.start(t);
    await dap.launch({ program: APP, console: "integratedTerminal" }, { breakpoints: { [APP]: [13] } });
    await dap.stopped();
    assert.equal((await dap.topFrame()).line, 13);
    assert.equal(dap.terminals.length, 1);
    await dap.request("continue", { threadId: 1 });
    await dap.event("terminated");
    await new Promise((resolve) => dap.terminals[0].process.once("close", resolve));
    assert.match(dap.terminals[0].output.stdout, /raw stdout/, "the terminal shows the program's output");
    assert.match(dap.output("stdout"), /distance 5 total 10/);
  });

  test("an editor 16 s slow to open the terminal (past the adapter's 15 s request limit) still gets the session and its breakpoint", {
    timeout: 60_000,
  }, async (t) => {
    const dap = DapClient.start(t);
    dap.terminalDelay = 16_000;
    await dap.launch({ program: APP, console: "integratedTerminal" }, { breakpoints: { [APP]: [13] } });
    await dap.stopped();
    assert.equal((await dap.topFrame()).line, 13);
    await dap.request("continue", { threadId: 1 });
    await dap.event("terminated");
  });

  test("noDebug runs the program without the debugger; its output and exit code arrive", async (t) => {
    const dap = DapClient.start(t);
    await dap.launch({ program: APP, noDebug: true }, { breakpoints: { [APP]: [13] } });
    assert.equal((await dap.event("exited")).exitCode, 0);
    assert.equal(dap.events.filter((event) => event.event === "stopped").length, 0);
    assert.match(dap.output("stdout"), /start \{ answer: 42 \}\n/);
  });

  test("watchMode: after a file changes and rt restarts the program, the debugger reattaches and breakpoints hit again", async (t) => {
    const dir = tempCopy(t);
    const file = path.join(dir, "ticker.ts");
    const dap = DapClient.start(t);
    await dap.launch({ program: file, watchMode: true }, { breakpoints: { [file]: [{ line: 5, condition: "ticks === 1" }] } });
    await dap.stopped();
    assert.equal((await dap.topFrame()).line, 5);
    await dap.request("continue", { threadId: 1 });
    writeFileSync(file, readFileSync(file, "utf8").replace('console.log("ticking")', 'console.log("ticking again")'));
    await dap.event("output", (body) => /the debugger reattached/.test(body.output));
    await dap.stopped();
    const frame = await dap.topFrame();
    assert.deepEqual([frame.source.path, frame.line], [file, 5]);
    await dap.request("continue", { threadId: 1 });
    await dap.event("output", (body) => body.output === "ticking again\n");
    await dap.request("disconnect", { terminateDebuggee: true });
  });

  test("a script that runs `rt --watch` (no watchMode): the debugger reattaches after each restart", async (t) => {
    const dir = tempCopy(t);
    const file = path.join(dir, "ticker.ts");
    const manifest = path.join(dir, "package.json");
    writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, "utf8")), scripts: { dev: "rt --watch ticker.ts" } }));
    const dap = DapClient.start(t);
    await dap.launch({ script: "dev", cwd: dir }, { breakpoints: { [file]: [{ line: 5, condition: "ticks === 1" }] } });
    for (const round of [1, 2]) {
      await dap.stopped();
      const frame = await dap.topFrame();
      assert.deepEqual([frame.source.path, frame.line], [file, 5], `stop ${round}`);
      await dap.request("continue", { threadId: 1 });
      writeFileSync(file, readFileSync(file, "utf8").replace(/console\.log\("ticking[^"]*"\)/, `console.log("ticking ${round}")`));
      await dap.event("output", (body) => /the debugger reattached/.test(body.output));
    }
    await dap.stopped();
    await dap.request("continue", { threadId: 1 });
    await dap.event("output", (body) => body.output === "ticking 2\n");
    await dap.request("disconnect", { terminateDebuggee: true });
  });
});

describe("attach", () => {
  test("by URL: breakpoints hit; disconnect leaves the program running to its end", async (t) => {
    const port = await freePort();
    const program = startRt(t, [`--inspect-wait=127.0.0.1:${port}/attach-me`, "app.ts"], DIR);
    await program.listening;
    const dap = DapClient.start(t);
    await dap.start("attach", { url: `ws://127.0.0.1:${port}/attach-me` }, { breakpoints: { [APP]: [13] } });
    await dap.stopped();
    assert.equal((await dap.topFrame()).name, "distance");
    await dap.request("disconnect", {});
    assert.equal(await program.exited, 0);
    assert.match(program.output.stdout, /DONE! <b class="name">rt<\/b>/);
  });

  test("by port (through /json/list); console output logged before attaching is not lost", async (t) => {
    const port = await freePort();
    const program = startRt(t, [`--inspect=127.0.0.1:${port}`, "forever.ts"], DIR);
    await program.listening;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.match(program.output.stdout, /ticking/, "logged before the debugger attached");
    const dap = DapClient.start(t);
    const FOREVER = path.join(DIR, "forever.ts");
    await dap.start("attach", { port }, { breakpoints: { [FOREVER]: [4] } });
    await dap.stopped();
    assert.equal((await dap.topFrame()).line, 4);
    const early = dap.events.find((event) => event.event === "output" && event.body.output === "ticking\n");
    assert.ok(early, "the console call made before attaching is replayed");
    assert.deepEqual([early.body.source.path, early.body.line], [FOREVER, 5]);
    await dap.request("disconnect", {});
    await program.stop();
  });

  test("a plain `node --inspect` program (not rt, which reports uncaught errors itself): its uncaught error reaches the Debug Console from the debugger, at its line", async (t) => {
    const port = await freePort();
    const PLAIN = path.join(DIR, "plain-throws.mjs");
    const program = spawn(process.execPath, [`--inspect-wait=127.0.0.1:${port}`, PLAIN], { stdio: ["ignore", "ignore", "pipe"] });
    t.after(() => program.kill("SIGKILL"));
    let stderr = "";
    await new Promise((resolve) => program.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk).includes("Debugger listening") && resolve()));
    const dap = DapClient.start(t);
    await dap.start("attach", { port }, {});
    const uncaught = await dap.event("output", (body) => body.category === "stderr" && body.output.startsWith("Uncaught "));
    assert.equal(uncaught.output.split("\n")[0], "Uncaught RangeError: nobody catches this");
    assert.deepEqual([uncaught.source.path, uncaught.line, uncaught.column], [PLAIN, 4, 9]);
    await dap.request("disconnect", {});
  });
});

describe("bad input: an error answer the user can act on, never a hang", () => {
  const cases = [
    ["no program nor script", "launch", {}, /needs "program" \(a file to run\) or "script"/],
    ["a missing program", "launch", { program: path.join(DIR, "nope.ts") }, /the program ".*nope\.ts" does not exist/],
    [
      "a runtimeExecutable that does not exist",
      "launch",
      { program: APP, runtimeExecutable: "/no/such/rt" },
      /the rt executable "\/no\/such\/rt" \(runtimeExecutable\) does not exist/,
    ],
    [
      "a program that exits before the debugger attaches",
      "launch",
      { program: APP, runtimeArgs: ["--no-such-flag"] },
      /rt exited with code 2 before the debugger could attach: rt: .*--no-such-flag/,
    ],
    ["an unreachable attach URL", "attach", { url: "ws://127.0.0.1:9/nobody" }, /cannot connect to ws:\/\/127\.0\.0\.1:9\/nobody/],
    ["a remote host without allowRemote", "attach", { url: "ws://192.0.2.1:9229/x" }, /"192\.0\.2\.1" is not this machine: set "allowRemote": true/],
    ["a port nobody listens on", "attach", { port: 9 }, /cannot reach an rt inspector at 127\.0\.0\.1:9/],
    ["not a URL", "attach", { url: "nonsense" }, /"nonsense" is not a URL/],
  ];
  for (const [name, command, args, message] of cases) {
    test(name, async (t) => {
      const dap = DapClient.start(t);
      await dap.request("initialize", { adapterID: "rt", pathFormat: "path" });
      const started = Date.now();
      const response = await dap.raw(command, command === "launch" ? { runtimeExecutable: RT_BIN, ...args } : args);
      assert.equal(response.success, false);
      assert.match(response.message, message);
      assert.equal(response.message.split("\n").length, 1);
      assert.ok(Date.now() - started < 15_000);
    });
  }

  test("requests that make no sense: variables that are gone, a frame that doesn't exist, an unknown exception filter", async (t) => {
    const dap = DapClient.start(t);
    await dap.launch({ program: APP }, { breakpoints: { [APP]: [13] } });
    await dap.stopped();
    assert.match((await dap.raw("variables", { variablesReference: 987654 })).message, /these variables are gone/);
    assert.match((await dap.raw("scopes", { frameId: 987654 })).message, /no stack frame 987654/);
    assert.match((await dap.raw("setExceptionBreakpoints", { filters: ["sometimes"] })).message, /unknown exception filter "sometimes"/);
    assert.match((await dap.raw("evaluate", { expression: "nope(", context: "repl" })).message, /SyntaxError/);
    await dap.request("continue", { threadId: 1 });
    await dap.event("terminated");
  });
});

describe("attach with restart", () => {
  test("to rt --watch by URL: the restarted program (same address) is reattached", async (t) => {
    const dir = tempCopy(t);
    const file = path.join(dir, "ticker.ts");
    const port = await freePort();
    const program = startRt(t, ["--watch", `--inspect=127.0.0.1:${port}/watched`, "ticker.ts"], dir);
    await program.listening;
    const dap = DapClient.start(t);
    await dap.start("attach", { url: `ws://127.0.0.1:${port}/watched`, restart: { maxAttempts: 20, delayMs: 100 } });
    // The program runs freely (--inspect): breakpoints are set while it ticks.
    await dap.request("setBreakpoints", { source: { path: file }, breakpoints: [{ line: 5 }] });
    await dap.stopped();
    assert.equal((await dap.topFrame()).line, 5);
    await dap.request("setBreakpoints", { source: { path: file }, breakpoints: [] });
    await dap.request("continue", { threadId: 1 });
    writeFileSync(file, readFileSync(file, "utf8").replace("}, 20);", "}, 25);"));
    await dap.event("output", (body) => /reattached to the restarted program/.test(body.output));
    await dap.request("setBreakpoints", { source: { path: file }, breakpoints: [{ line: 5 }] });
    await dap.stopped();
    const frame = await dap.topFrame();
    assert.deepEqual([frame.source.path, frame.line], [file, 5]);
    await dap.request("disconnect", {});
    await program.stop();
  });
});

/**
 * The signals this process sends (process.kill, but for the existence probe 0) while `action`
 * runs: the adapter in this process (as VS Code's inline adapter) sends them from here.
 */
async function signalsSentDuring(action) {
  const signals = [];
  const kill = process.kill;
  process.kill = (pid, signal) => {
    if (signal !== 0) signals.push([pid, signal ?? "SIGTERM"]);
    return kill.call(process, pid, signal);
  };
  try {
    await action();
  } finally {
    process.kill = kill;
  }
  return signals;
}

test("a disconnect after the program ended signals nothing: its process id may be another process's by then", async (t) => {
  // The adapter in this process (as VS Code's inline adapter), so the test sees the signals it sends.
  const adapter = createRequire(import.meta.url)(path.join(path.dirname(ADAPTER), "index.cjs"));
  const dir = tempCopy(t);
  const dap = DapClient.inProcess(t, adapter, { runtimeExecutable: RT_BIN });
  await dap.start("launch", { type: "rt", request: "launch", name: "short", program: path.join(dir, "short.ts"), cwd: dir });
  assert.equal((await dap.event("exited")).exitCode, 0);
  await dap.event("terminated");
  assert.deepEqual(await signalsSentDuring(() => dap.request("disconnect", { terminateDebuggee: true })), []);
});

test("a child session's disconnect after the child ended signals nothing: its process id may be another process's by then", async (t) => {
  // The adapter in this process, attached as a child session (the configuration children.ts makes),
  // so the test sees the signals it sends.
  const adapter = createRequire(import.meta.url)(path.join(path.dirname(ADAPTER), "index.cjs"));
  const dir = tempCopy(t);
  const port = await freePort();
  const program = startRt(t, [`--inspect-wait=127.0.0.1:${port}/child`, "short.ts"], dir);
  await program.listening;
  const dap = DapClient.inProcess(t, adapter, { runtimeExecutable: RT_BIN });
  await dap.start("attach", {
    type: "rt",
    request: "attach",
    name: "short.ts [child]",
    url: `ws://127.0.0.1:${port}/child`,
    __childProcessId: program.child.pid,
  });
  await dap.event("terminated");
  assert.equal(await program.exited, 0);
  assert.deepEqual(await signalsSentDuring(() => dap.request("disconnect", { terminateDebuggee: true })), []);
});
