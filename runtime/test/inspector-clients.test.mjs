// rt's inspector with debugger clients nobody here wrote: Node's own `node inspect` driven through
// its stdin, the chrome-remote-interface library with its default options, and Chrome's DevTools
// frontend as Chromium serves it, driven by Playwright. Each against a real rt process.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, test } from "node:test";
import { WAITING_FOR_DISCONNECT, startInspected } from "./cdp.mjs";
import { FIXTURES, REPO, skipUnlessCI, tempDir } from "./rt.mjs";
import { freePort } from "../../test/support/servers.mjs";
import { CHROMIUM_ARGS } from "../../test/support/chromium.mjs";

const DIR = path.join(FIXTURES, "inspector");
const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((file) => existsSync(file));
const ARTIFACTS = path.join(REPO, "test", ".artifacts");
const CDP = createRequire(import.meta.url)("chrome-remote-interface");

/** Resolves once `check()` is true; fails after `timeout` ms with `what` and the given output. */
async function until(check, what, output = () => "", timeout = 20_000) {
  const deadline = Date.now() + timeout;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeout} ms. Output:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `node inspect <host>:<port>` (Node's own command-line debugger), typed into through its stdin. */
function nodeInspect(t, port) {
  const child = spawn(process.execPath, ["inspect", `127.0.0.1:${port}`], { env: { ...process.env, NO_COLOR: "1" } });
  t.after(() => child.kill("SIGKILL"));
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on("close", (code) => resolve(code)));
  return {
    exited,
    get output() {
      return output;
    },
    /** Types `command` and resolves with what it printed up to the next prompt (matching `expect`). */
    async type(command, expect = /[\s\S]/) {
      const from = output.length;
      child.stdin.write(`${command}\n`);
      await until(
        () => /debug> $/.test(output.slice(from)) && expect.test(output.slice(from)),
        `node inspect: ${command} → ${expect}`,
        () => output,
      );
      return output.slice(from);
    },
    /** Waits for `pattern` in what it printed (from the start). */
    waitFor(pattern) {
      return until(
        () => pattern.test(output),
        `node inspect output ${pattern}`,
        () => output,
      );
    },
  };
}

describe("node inspect", () => {
  test("against rt --inspect-brk: breaks on the first line; sb, cont, bt (no rt frames), exec; the program's end; .exit ends rt", async (t) => {
    const run = startInspected(t, ["--inspect-brk", "plain.js"], { cwd: DIR });
    const port = Number(new URL(await run.banner).port);
    const debug = nodeInspect(t, port);
    await debug.waitFor(/break in \S*plain\.js:6\n[\s\S]*> 6 console\.log\(greet\("plain"\)\);[\s\S]*debug> $/);
    assert.match(await debug.type("sb(3)"), /> 3 {3}const message = "hello " \+ name;/);
    await debug.type("cont", /break in \S*plain\.js:3/);
    const backtrace = await debug.type("bt", /#1 /);
    assert.match(backtrace, /#0 greet \S*plain\.js:3:\d+\n#1 \(anonymous\) \S*plain\.js:6:\d+\n/);
    assert.doesNotMatch(backtrace, /cli\.cjs|rt\.cjs|runtime\/dist|runtime\/bin/, "rt's own frames are off the stack");
    assert.match(await debug.type("exec name", /'plain'/), /(?:^|debug> )'plain'$/m);
    await debug.type("cont");
    // The end: rt prints Node's line and keeps the session, which still evaluates.
    await until(
      () => run.output.stderr.endsWith(WAITING_FOR_DISCONNECT),
      "rt's waiting line",
      () => run.output.stderr,
    );
    assert.equal(run.output.stdout, "hello plain\n");
    assert.match(await debug.type("exec process.exitCode ?? 0", /^0$/m), /^0$/m);
    assert.equal(run.child.exitCode, null, "rt waits while node inspect is attached");
    debug.type(".exit").catch(() => {});
    assert.equal(await debug.exited, 0);
    const { code } = await run.exited;
    assert.equal(code, 0);
  });

  test("against rt --inspect-wait: the program starts on attach; a breakpoint in running code, bt, exec, clear it, cont to the end; .exit", async (t) => {
    const dir = tempDir(t);
    writeFileSync(
      path.join(dir, "ticker.js"),
      [
        "let count = 0;",
        "const timer = setInterval(() => {",
        "  count += 1;",
        "  if (count === 30) clearInterval(timer);",
        "}, 20);",
        'process.on("exit", () => console.log("counted", count));',
        "",
      ].join("\n"),
    );
    const run = startInspected(t, ["--inspect-wait", "ticker.js"], { cwd: dir });
    const port = Number(new URL(await run.banner).port);
    const debug = nodeInspect(t, port);
    await debug.waitFor(/debug> $/);
    await debug.type("sb('ticker.js', 3)", /> 3 {3}count \+= 1;/);
    // (node inspect may print the stop's listing after its prompt: bt's answer can follow it on that line.)
    await debug.waitFor(/break in \S*ticker\.js:3\n[\s\S]*debug> $/);
    assert.match(await debug.type("bt", /#1 /), /#0 \(anonymous\) \S*ticker\.js:3:\d+\n#1 listOnTimeout node:internal\/timers/);
    const count = Number(/(?:^|debug> )(\d+)$/m.exec(await debug.type("exec count", /(?:^|debug> )\d+$/m))[1]);
    assert.ok(count >= 0 && count < 30, `count ${count}`);
    await debug.type("cb('ticker.js', 3)");
    await debug.type("cont");
    await until(
      () => run.output.stderr.endsWith(WAITING_FOR_DISCONNECT),
      "rt's waiting line",
      () => run.output.stderr,
    );
    assert.equal(run.output.stdout, "counted 30\n");
    debug.type(".exit").catch(() => {});
    assert.equal(await debug.exited, 0);
    assert.equal((await run.exited).code, 0);
  });
});

describe("chrome-remote-interface (default options)", () => {
  test("CDP({ port }): /json/list, /json/protocol, a breakpoint, steps, console, the program's end", async (t) => {
    const port = await freePort();
    const run = startInspected(t, [`--inspect-brk=${port}`, "plain.js"], { cwd: DIR });
    await run.banner;
    const targets = await CDP.List({ port });
    assert.deepEqual(
      targets.map(({ type, url }) => ({ type, url })),
      [{ type: "node", url: pathToFileURL(path.join(DIR, "plain.js")).href }],
    );
    const protocol = await CDP.Protocol({ port });
    assert.ok(protocol.domains.some((domain) => domain.domain === "Debugger"));

    // Its defaults: host localhost, the descriptor from /json/protocol, the first target listed.
    const client = await CDP({ port });
    t.after(() => client.close());
    const { Debugger, Runtime } = client;
    assert.equal(typeof Debugger.setBreakpointByUrl, "function", "methods built from the served descriptor");
    const logged = [];
    Runtime.consoleAPICalled(({ args }) => logged.push(args.map((arg) => arg.value).join(" ")));
    await Runtime.enable();
    await Debugger.enable();
    const entry = Debugger.paused();
    await Runtime.runIfWaitingForDebugger();
    assert.equal((await entry).callFrames[0].location.lineNumber, 5, "stopped on the first statement");

    const url = pathToFileURL(path.join(DIR, "plain.js")).href;
    const { breakpointId } = await Debugger.setBreakpointByUrl({ url, lineNumber: 2 });
    const hit = Debugger.paused();
    await Debugger.resume();
    const atBreakpoint = await hit;
    assert.deepEqual(
      [atBreakpoint.hitBreakpoints, atBreakpoint.callFrames[0].functionName, atBreakpoint.callFrames[0].location.lineNumber],
      [[breakpointId], "greet", 2],
    );
    const stepped = Debugger.paused();
    await Debugger.stepOver();
    const afterStep = await stepped;
    assert.equal(afterStep.callFrames[0].location.lineNumber, 3);
    const { result } = await Debugger.evaluateOnCallFrame({ callFrameId: afterStep.callFrames[0].callFrameId, expression: "message" });
    assert.equal(result.value, "hello plain");
    const out = Debugger.paused();
    await Debugger.stepOut();
    assert.equal((await out).callFrames[0].location.lineNumber, 5, "back in the caller");

    const ended = Runtime.executionContextDestroyed();
    await Debugger.resume();
    await ended;
    assert.deepEqual(logged, ["hello plain"]);
    assert.equal((await Runtime.evaluate({ expression: "process.exitCode ?? 0" })).result.value, 0);
    await client.close();
    assert.deepEqual(await run.exited.then((r) => [r.code, r.stdout]), [0, "hello plain\n"]);
  });
});

describe("Chrome's DevTools frontend (as Chromium serves it)", () => {
  test("rt --inspect-brk x.ts: the .ts source in Sources, a breakpoint set by clicking the gutter is hit, scope values, no rt frames", async (t) => {
    if (!CHROMIUM) return skipUnlessCI(t, "Chromium is not installed (Debian package chromium)");
    const run = startInspected(t, ["--inspect-brk", "app.ts"], { cwd: DIR });
    const socket = new URL(await run.banner);
    const { chromium } = await import("playwright-core");
    const chromiumPort = await freePort();
    // Flags as the machine notes prescribe (the network is closed); the debugging port serves the frontend.
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS, `--remote-debugging-port=${chromiumPort}`],
    });
    t.after(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // The frontend Chromium ships, from its own loopback origin, pointed at rt as chrome://inspect would.
    await page.goto(`http://127.0.0.1:${chromiumPort}/devtools/js_app.html?ws=${socket.host}${socket.pathname}`);

    // Paused on the entry's first statement, in the original TypeScript (from the inline source map).
    await page.locator(".cm-content").filter({ hasText: "interface Pair" }).waitFor();
    await page.getByText("Debugger paused").waitFor();
    assert.equal(run.output.stdout, "", "nothing ran yet");

    // A breakpoint on `const sum: number = a + b;` by clicking its line number, then F8 (resume).
    const line8 = page.locator(".cm-lineNumbers .cm-gutterElement").filter({ hasText: /^8$/ });
    await line8.click();
    await page.locator(".cm-lineNumbers .cm-breakpoint").filter({ hasText: /^8$/ }).waitFor();
    await page.keyboard.press("F8");
    await page.getByText("Paused on breakpoint").waitFor();
    assert.equal(run.output.stdout, "before\n");
    for (const value of [/^a: 2$/, /^b: 3$/]) await page.locator("li").filter({ hasText: value }).first().waitFor();
    assert.equal((await page.getByText(/^add$/).count()) > 0, true, "the call stack names add");
    assert.equal(await page.getByText(/cli\.cjs|rt\.cjs/).count(), 0, "rt's own frames are not on the call stack");
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, "devtools-frontend.png") });

    // On to the end: rt keeps the session until the frontend goes.
    await page.keyboard.press("F8");
    await until(
      () => run.output.stderr.endsWith(WAITING_FOR_DISCONNECT),
      "rt's waiting line",
      () => run.output.stderr,
    );
    assert.equal(run.output.stdout, "before\ntotal 5\n");
    await page.close();
    assert.equal((await run.exited).code, 0);
  });
});
