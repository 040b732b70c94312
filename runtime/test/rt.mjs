// Runs the real `rt` executable as a child process, the way a user would.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const RT_BIN = fileURLToPath(new URL("../bin/rt.cjs", import.meta.url));
/** rt's compiled front (runtime/native/), which npm run build builds when Go is installed. */
export const NATIVE_FRONT = fileURLToPath(new URL("../dist/rt", import.meta.url));
export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const FIXTURES = path.join(REPO, "test", "fixtures");

/**
 * The command line that starts `rt ...args`: the Node CLI, as a user's Node runs bin/rt.cjs, or
 * the compiled front when RT_TEST_FRONT=native (the scripts suites set it; with RT_NATIVE=0 the
 * front hands every invocation to the Node CLI).
 */
export function rtArgv(args) {
  return process.env.RT_TEST_FRONT === "native" ? [NATIVE_FRONT, ...args] : [process.execPath, "--", RT_BIN, ...args];
}

/** Whether the compiled front runs the scripts itself (rather than the Node CLI). */
export function throughNativeFront() {
  return process.env.RT_TEST_FRONT === "native" && process.env.RT_NATIVE !== "0";
}

/** A fresh temporary directory, removed when the test ends. */
export function tempDir(t, prefix = "rt-test-") {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Every rt() call gets an empty transpiler cache of its own, under one directory removed at exit.
const CACHE_ROOT = mkdtempSync(path.join(tmpdir(), "rt-cache-"));
process.on("exit", () => rmSync(CACHE_ROOT, { recursive: true, force: true }));
let caches = 0;

/**
 * Runs `rt ...args` and returns { code, signal, stdout, stderr }.
 * Each call gets its own transpiler cache unless `env.RT_TRANSPILER_CACHE_PATH` is given.
 */
export function rt(args, { cwd = process.cwd(), env = {}, input } = {}) {
  const [command, ...rest] = rtArgv(args);
  const result = spawnSync(command, rest, {
    cwd,
    input,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", RT_TRANSPILER_CACHE_PATH: path.join(CACHE_ROOT, String(++caches)), ...env },
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { code: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** Runs rt in `dir` (with `env` added); asserts a clean exit (code 0, nothing on stderr) and returns stdout. */
export function runOk(dir, args, env = {}) {
  const result = rt(args, { cwd: dir, env });
  assert.deepEqual({ code: result.code, stderr: result.stderr }, { code: 0, stderr: "" }, `rt ${args.join(" ")} in ${dir}\n${result.stdout}`);
  return result.stdout;
}

/** Like rt(), without waiting: for running several rt processes at once. */
export function rtAsync(args, { cwd = process.cwd(), env = {} } = {}) {
  const [command, ...rest] = rtArgv(args);
  return outputOf(spawn(command, rest, { cwd, env: { ...process.env, NO_COLOR: "1", ...env } }));
}

/** A started child's { code, signal, stdout, stderr } once it has closed. */
export function outputOf(child) {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * Skips a test whose system component is missing, with the reason printed; under CI=true that
 * is a failure instead, since CI installs every component the suite needs.
 */
export function skipUnlessCI(t, reason) {
  if (process.env.CI === "true") throw new Error(`${reason} (under CI=true a missing system component fails the test)`);
  t.skip(reason);
}

/**
 * Starts a long-running `rt ...args` (--watch, --hot, servers) and returns helpers to wait for
 * its output: `waitFor(pattern)` resolves with the output once stdout+stderr (from `from` on)
 * match, `stop()` ends it (also done when the test ends). Waits are generous: no timing guesses.
 */
export function rtLive(t, args, { cwd = process.cwd(), env = {}, terminal = false } = {}) {
  const command = rtArgv(args);
  const options = { cwd, env: { ...process.env, NO_COLOR: "1", RT_TRANSPILER_CACHE_PATH: path.join(CACHE_ROOT, String(++caches)), ...env } };
  // `terminal`: on a real pseudo-terminal, through script(1); its own process group, ended as one.
  const child = terminal
    ? spawn("script", ["-qec", command.map((arg) => `'${arg}'`).join(" "), "/dev/null"], { ...options, detached: true })
    : spawn(command[0], command.slice(1), options);
  let output = "";
  const waiters = new Set();
  const check = () => {
    for (const waiter of waiters) if (waiter.test()) waiters.delete(waiter);
  };
  child.stdout.setEncoding("utf8").on("data", (chunk) => ((output += chunk), check()));
  child.stderr.setEncoding("utf8").on("data", (chunk) => ((output += chunk), check()));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const live = {
    child,
    exited,
    get output() {
      return output;
    },
    /** Resolves when the output after offset `from` matches `pattern`; rejects after `timeout` ms. */
    waitFor(pattern, { from = 0, timeout = 30_000 } = {}) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`rt ${args.join(" ")}: no output matching ${pattern} within ${timeout} ms. Output:\n${output}`));
        }, timeout);
        const waiter = {
          test: () => {
            if (!pattern.test(output.slice(from))) return false;
            clearTimeout(timer);
            resolve(output);
            return true;
          },
        };
        if (!waiter.test()) waiters.add(waiter);
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        if (terminal) process.kill(-child.pid, "SIGTERM");
        else child.kill("SIGTERM");
      }
      return exited;
    },
  };
  t.after(() => live.stop());
  return live;
}
