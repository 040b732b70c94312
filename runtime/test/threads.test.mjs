// Worker threads and child processes of a program rt runs run on rt too (rt-runtime/register), and
// `node --import rt-runtime/register` / `node --test` under `rt --rt run` use rt's loader: real processes.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, test } from "node:test";
import { CdpClient, startInspected } from "./cdp.mjs";
import { FIXTURES, RT_BIN, rt, rtLive, tempDir } from "./rt.mjs";

const cwd = path.join(FIXTURES, "threads");
const worker = (label) => `${label}: <b>hello from the worker</b> (${label}, import.meta.main: true)\n${label}: exit 0\n`;
const child = (label, mode = "unset", main = true) => `${label}: <b>hello from the child</b> (MODE=${mode}, import.meta.main: ${main})\n`;

/** `node <args>` in the fixture (Node's own CLI, not rt's), with its own transpiler cache. */
function node(t, args) {
  const result = spawnSync(process.execPath, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", RT_TRANSPILER_CACHE_PATH: tempDir(t) },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("worker threads run on rt", () => {
  test("new Worker(path | URL | extensionless | execArgv | own env | eval code): tsconfig paths, enums, JSX; an uncaught error reaches the 'error' event", () => {
    const result = rt(["workers.ts"], { cwd });
    assert.equal(result.stderr, "");
    assert.equal(
      result.stdout,
      worker("path") +
        worker("url") +
        worker("extensionless") +
        worker("execArgv") +
        worker("own env") +
        "eval: <b>eval</b>\neval: exit 0\n" +
        "throw: error event: thrown in the worker\nthrow: exit 1\n",
    );
    assert.equal(result.code, 0);
  });
});

describe("--watch follows worker threads", () => {
  test("editing a worker's file (or a module it imports) restarts the program", async (t) => {
    const dir = tempDir(t);
    writeFileSync(
      path.join(dir, "main.ts"),
      'import { Worker } from "node:worker_threads";\nnew Worker("./worker.ts").on("message", (m: string) => console.log(m));\n',
    );
    writeFileSync(
      path.join(dir, "worker.ts"),
      'import { parentPort } from "node:worker_threads";\nimport { text } from "./text.ts";\nparentPort!.postMessage(`worker says ${text}`);\n',
    );
    writeFileSync(path.join(dir, "text.ts"), 'export const text: string = "one";\n');
    const live = rtLive(t, ["--watch", "--no-clear-screen", "main.ts"], { cwd: dir });
    await live.waitFor(/worker says one\n/);
    let from = live.output.length;
    writeFileSync(path.join(dir, "text.ts"), 'export const text: string = "two";\n');
    assert.match((await live.waitFor(/worker says two\n/, { from })).slice(from), /restarting: text\.ts changed/);
    from = live.output.length;
    writeFileSync(path.join(dir, "worker.ts"), 'import { parentPort } from "node:worker_threads";\nparentPort!.postMessage("worker edited");\n');
    assert.match((await live.waitFor(/worker edited\n/, { from })).slice(from), /restarting: worker\.ts changed/);
  });
});

/** A worker's own session, carried inside the main thread's (NodeWorker). */
function workerSession(cdp, sessionId) {
  let id = 0;
  return {
    send: (method, params) => cdp.send("NodeWorker.sendMessageToWorker", { sessionId, message: JSON.stringify({ id: ++id, method, params }) }),
    /** The params of the worker's next `method` notification that `filter` accepts. */
    event: (method, filter = () => true) =>
      cdp
        .event("NodeWorker.receivedMessageFromWorker", ({ sessionId: from, message }) => {
          const parsed = JSON.parse(message);
          return from === sessionId && parsed.method === method && filter(parsed.params);
        })
        .then(({ message }) => JSON.parse(message).params),
  };
}

/**
 * `rt --inspect-wait ...args` with a client that follows worker threads: the first worker whose
 * URL ends with `suffix`, announced waiting for the debugger, and its session.
 */
async function firstWorker(t, args, options, suffix) {
  const { banner, exited } = startInspected(t, ["--inspect-wait", ...args], options);
  const cdp = await CdpClient.connect(await banner);
  t.after(() => cdp.close());
  await cdp.send("NodeWorker.enable", { waitForDebuggerOnStart: true });
  await cdp.send("Runtime.runIfWaitingForDebugger");
  const attached = await cdp.event("NodeWorker.attachedToWorker", ({ workerInfo }) => workerInfo.url.endsWith(suffix));
  return { cdp, exited, attached, worker: workerSession(cdp, attached.sessionId) };
}

describe("the debugger follows worker threads", () => {
  test("--inspect-wait: a worker the program starts is announced through NodeWorker, waits for the debugger, and loads rt's transpiled code with its source map", async (t) => {
    const { cdp, exited, attached, worker } = await firstWorker(t, ["one-worker.ts"], { cwd, env: { RT_TRANSPILER_CACHE_PATH: tempDir(t) } }, "/worker.ts");
    assert.equal(attached.workerInfo.url, pathToFileURL(path.join(cwd, "worker.ts")).href);
    assert.equal(attached.waitingForDebugger, true);
    const greetParsed = worker.event("Debugger.scriptParsed", ({ url }) => url.endsWith("/lib/greet.ts"));
    const paused = worker.event("Debugger.paused");
    await worker.send("Debugger.enable");
    await worker.send("Runtime.runIfWaitingForDebugger");
    const script = await greetParsed;
    // An enum: transpiled by rt (Node's type stripping refuses it), mapped back to the .ts source.
    assert.match(script.sourceMapURL, /^data:application\/json/);
    const map = JSON.parse(Buffer.from(script.sourceMapURL.split(",")[1], "base64").toString());
    assert.match(map.sourcesContent[0], /export enum Place/);
    // Node stops a worker that waited for the debugger on its first statement: the program's
    // (the first module it evaluates), not rt's loader that ran before it.
    const stop = await paused;
    assert.equal(stop.reason, "Break on start");
    assert.equal(stop.callFrames[0].location.scriptId, script.scriptId);
    await worker.send("Debugger.resume");
    // The worker's end detaches its session; the program then waits for the client to go, as Node does.
    await cdp.event("NodeWorker.detachedFromWorker", ({ sessionId }) => sessionId === attached.sessionId);
    cdp.close();
    const result = await exited;
    assert.equal(result.stdout, "<b>hello from the worker</b> (debugged, import.meta.main: true)\n");
  });

  test("a client that leaves while a worker thread is paused lets it run on: the program ends", async (t) => {
    const { cdp, exited, worker } = await firstWorker(t, ["one-worker.ts"], { cwd, env: { RT_TRANSPILER_CACHE_PATH: tempDir(t) } }, "/worker.ts");
    const paused = worker.event("Debugger.paused");
    await worker.send("Debugger.enable");
    await worker.send("Runtime.runIfWaitingForDebugger");
    await paused;
    cdp.close();
    const result = await exited;
    assert.equal(result.code, 0);
    assert.match(result.stdout, /hello from the worker/);
  });

  test("a large file in a worker thread (its source map beside the cache entry) reaches the client with its map inline", async (t) => {
    const dir = tempDir(t);
    const filler = Array.from({ length: 1500 }, (_, i) => `const value${i}: Readonly<Record<string, number>> = { n: ${i} };`);
    writeFileSync(path.join(dir, "large.ts"), `${filler.join("\n")}\nconsole.log(value1499.n);\n`);
    writeFileSync(path.join(dir, "main.ts"), 'import { Worker } from "node:worker_threads";\nnew Worker(new URL("./large.ts", import.meta.url));\n');
    const { cdp, exited, worker } = await firstWorker(t, ["main.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: path.join(dir, "cache") } }, "/large.ts");
    const url = pathToFileURL(path.join(dir, "large.ts")).href;
    const parsed = worker.event("Debugger.scriptParsed", (params) => params.url === url);
    const paused = worker.event("Debugger.paused");
    await worker.send("Debugger.enable");
    await worker.send("Runtime.runIfWaitingForDebugger");
    const script = await parsed;
    await paused;
    assert.match(script.sourceMapURL, /^data:application\/json;base64,/);
    const map = JSON.parse(Buffer.from(script.sourceMapURL.split(",")[1], "base64").toString());
    assert.deepEqual(map.sources, [url]);
    assert.match(map.sourcesContent[0], /^const value1499: Readonly<Record<string, number>> = \{ n: 1499 \};$/m);
    await worker.send("Debugger.resume");
    cdp.close();
    assert.equal((await exited).stdout, "1499\n");
  });
});

describe("child processes run on rt", () => {
  test("fork, spawn(execPath, [...execArgv, file]), execFile(execPath, [extensionless]), execFileSync, cluster.fork: with the parent's --define and exit codes", () => {
    const result = rt(["--define", 'MODE:"prod"', "children.ts"], { cwd });
    assert.equal(result.stderr, "");
    assert.equal(
      result.stdout,
      child("fork", "prod") +
        "fork: exit 3\n" +
        child("spawn", "prod") +
        "spawn: exit 3\n" +
        child("execFile", "prod") +
        "execFile: exit 3\n" +
        child("execFileSync", "prod") +
        "execFileSync: exit 3\n" +
        // A cluster worker runs the primary's entry again, which imports child.ts.
        child("cluster.fork", "prod", false) +
        "cluster.fork: exit 3\n",
    );
    assert.equal(result.code, 0);
  });

  test("an rt started by the program sets itself up once (its own flags, not the parent's)", () => {
    const code = `require("node:child_process").spawnSync(process.execPath, [${JSON.stringify(RT_BIN)}, "--define", 'MODE:"nested"', "child.ts", "nested rt"], { stdio: "inherit" })`;
    const result = rt(["--define", 'MODE:"outer"', "-e", code], { cwd });
    assert.deepEqual(result, { code: 0, signal: null, stdout: child("nested rt", "nested"), stderr: "" });
  });
});

describe("rt's loader in Node's own CLI", () => {
  test("node --import rt-runtime/register and node --require rt-runtime/register run a .ts entry as rt does", (t) => {
    assert.deepEqual(node(t, ["--import", "rt-runtime/register", "child.ts", "--import"]), { code: 3, stdout: child("--import"), stderr: "" });
    assert.deepEqual(node(t, ["--require", "rt-runtime/register", "child", "--require"]), { code: 3, stdout: child("--require"), stderr: "" });
  });

  test("rt --rt run: `node --test` (a flag only Node has) runs Node's test runner on .ts files with rt's loader; `node -v` is Node's version, `node -pe` Node's -p -e", (t) => {
    // Without the variable that makes a `node --test` started by this test runner report to it.
    const { NODE_TEST_CONTEXT, ...env } = process.env;
    const run = spawnSync(process.execPath, [RT_BIN, "--rt", "run", "test"], {
      cwd,
      encoding: "utf8",
      env: { ...env, RT_TRANSPILER_CACHE_PATH: tempDir(t) },
      timeout: 60_000,
    });
    const tested = { code: run.status, stdout: run.stdout, stderr: run.stderr };
    assert.equal(tested.code, 0, tested.stdout + tested.stderr);
    assert.match(tested.stdout, /✔ greets from a test file/);
    assert.match(tested.stdout, /ℹ pass 1\n/);
    assert.deepEqual(rt(["--rt", "--silent", "run", "node-version"], { cwd }), { code: 0, signal: null, stdout: `${process.version}\n`, stderr: "" });
    // `-pe` is -p -e to Node (rt's parser would take "e" for -p's value).
    assert.deepEqual(rt(["--rt", "--silent", "run", "node-print"], { cwd }), { code: 0, signal: null, stdout: "42\n", stderr: "" });
  });
});
