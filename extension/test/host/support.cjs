// Helpers for the tests that run inside VS Code's extension host.
const assert = require("node:assert/strict");
const { spawnSync } = require("node:child_process");
const { existsSync, readdirSync, readFileSync, statSync } = require("node:fs");
const path = require("node:path");
const vscode = require("vscode");

const EXTENSION_ID = "rt.rt-vscode";

/** The workspace folder named `name` (the test workspace is multi-root: app, mono, empty). */
function folder(name) {
  const found = vscode.workspace.workspaceFolders?.find((folder) => folder.name === name);
  assert.ok(found, `workspace folder ${name} is open`);
  return found;
}

/** Resolves with the exit code of the task execution's process. */
function taskExit(execution, timeout = 60_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`task ${execution.task.name} did not end within ${timeout} ms`)), timeout);
    const listener = vscode.tasks.onDidEndTaskProcess((event) => {
      if (event.execution !== execution && event.execution.task.name !== execution.task.name) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(event.exitCode);
    });
  });
}

/** Polls `check` until it returns a truthy value. */
async function eventually(check, what, timeout = 20_000) {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeout) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** secret-tool against the same keyring the extension host uses (its environment has the bus). */
function secretTool(...args) {
  const result = spawnSync("secret-tool", args, { encoding: "utf8", timeout: 20_000 });
  return { code: result.status, stdout: result.stdout };
}

/** Follows the DAP messages of the next rt session: resolves events as they arrive. */
function followSession(type = "rt") {
  const seen = { output: "", stopped: [], exitCode: undefined };
  const waiters = [];
  const check = () => waiters.splice(0).forEach((waiter) => (waiter.test() ? waiter.resolve() : waiters.push(waiter)));
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory(type, {
    createDebugAdapterTracker: () => ({
      onDidSendMessage(message) {
        if (message.type !== "event") return;
        if (message.event === "stopped") seen.stopped.push({ ...message.body, at: performance.now() });
        if (message.event === "output" && message.body.category !== "telemetry") seen.output += message.body.output;
        if (message.event === "exited") seen.exitCode = message.body.exitCode;
        check();
      },
    }),
  });
  let session;
  const started = new Promise((resolve) => {
    const listener = vscode.debug.onDidStartDebugSession((s) => (listener.dispose(), (session = s), resolve(s)));
  });
  const terminated = new Promise((resolve) => {
    const listener = vscode.debug.onDidTerminateDebugSession((s) => s === session && (listener.dispose(), resolve()));
  });
  const until = (test, what, timeout = 30_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; output so far: ${seen.output}`)), timeout);
      waiters.push({ test, resolve: () => (clearTimeout(timer), resolve()) });
      check();
    });
  return { seen, started, terminated, until, dispose: () => tracker.dispose() };
}

/**
 * Presses Continue. The adapter (issue-10 at 69ee657..ea3a80b) sometimes answers a resume that
 * lets the program end with "Debugger.resume: the debugger connection closed": the program did
 * continue, so that one answer is not this extension's failure (the callers check the exit code).
 */
async function pressContinue() {
  try {
    await vscode.commands.executeCommand("workbench.action.debug.continue");
  } catch (error) {
    if (!/the debugger connection closed/.test(String(error))) throw error;
  }
}

/**
 * The lines of the extension's "rt" output channel so far, as the user reads them in the Output
 * panel: code-server keeps each log channel in a file under its logs folder (RT_E2E_LOGS), one
 * folder per start of the server, the newest last.
 */
function outputLines() {
  const logs = process.env.RT_E2E_LOGS;
  assert.ok(logs, "RT_E2E_LOGS names code-server's logs folder");
  const files = readdirSync(logs)
    .sort()
    .reverse()
    .flatMap((start) =>
      readdirSync(path.join(logs, start))
        .filter((name) => name.startsWith("exthost"))
        .map((host) => path.join(logs, start, host, EXTENSION_ID, "rt.log")),
    )
    .filter((file) => existsSync(file));
  assert.ok(files.length, `an rt.log under ${logs}`);
  const newest = files.reduce((a, b) => (statSync(b).mtimeMs > statSync(a).mtimeMs ? b : a));
  return readFileSync(newest, "utf8").split("\n");
}

function metric(name, value) {
  globalThis.rtMetrics[name] = value;
}

module.exports = { EXTENSION_ID, folder, taskExit, eventually, secretTool, followSession, pressContinue, outputLines, metric, path };
