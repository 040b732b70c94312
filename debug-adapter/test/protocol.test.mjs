// The adapter over stdio when the client gets the protocol wrong: raw bytes, as an editor's
// buggy or hand-written client sends them. One bad message is reported (an output event and a
// line on stderr) and skipped; the session goes on. Bad arguments get an error answer naming the
// field, never an internal error or a stack; initialize without pathFormat is DAP's default, "path".
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { ADAPTER, FIXTURES, RT_BIN } from "./dap.mjs";

const APP = path.join(FIXTURES, "basic", "app.ts");

/** The adapter with a byte-level client: write() raw bytes, request() framed, next() the next message. */
function rawAdapter(t) {
  const child = spawn(process.execPath, [ADAPTER], { stdio: ["pipe", "pipe", "pipe"] });
  t.after(() => child.kill("SIGKILL"));
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const messages = [];
  let wake = () => {};
  let buffer = Buffer.alloc(0);
  child.stdout.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (let end; (end = buffer.indexOf("\r\n\r\n")) !== -1; ) {
      const length = Number(/Content-Length: (\d+)/.exec(buffer.subarray(0, end).toString())[1]);
      if (buffer.length < end + 4 + length) break;
      messages.push(JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString()));
      buffer = buffer.subarray(end + 4 + length);
    }
    wake();
  });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  let seq = 1;
  const frame = (text) => `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
  return {
    write: (bytes) => child.stdin.write(bytes),
    frame,
    /** Sends a request framed as it should be; returns its seq. */
    send(command, args) {
      const request = { seq: seq++, type: "request", command, ...(args === undefined ? {} : { arguments: args }) };
      child.stdin.write(frame(JSON.stringify(request)));
      return request.seq;
    },
    /** The first message (taken) matching `filter`, waiting up to 15 s. */
    async take(filter, what) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const index = messages.findIndex(filter);
        if (index !== -1) return messages.splice(index, 1)[0];
        if (child.exitCode !== null) assert.fail(`the adapter exited (${child.exitCode}) before ${what}; stderr: ${stderr}`);
        if (Date.now() > deadline) assert.fail(`no ${what} within 15 s; stderr: ${stderr}`);
        await new Promise((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
    },
    response(requestSeq) {
      return this.take((message) => message.type === "response" && message.request_seq === requestSeq, `an answer to request ${requestSeq}`);
    },
    output(pattern) {
      return this.take((message) => message.event === "output" && pattern.test(message.body.output), `output matching ${pattern}`);
    },
    stderr: () => stderr,
    exited,
    alive: () => child.exitCode === null,
  };
}

test("initialize without pathFormat is accepted (DAP's default is path); pathFormat uri is refused with a reason", async (t) => {
  const dap = rawAdapter(t);
  const ok = await dap.response(dap.send("initialize", { adapterID: "rt" }));
  assert.equal(ok.success, true, ok.message);
  assert.equal(ok.body.supportsConfigurationDoneRequest, true);
  const uri = await dap.response(dap.send("initialize", { adapterID: "rt", pathFormat: "uri" }));
  assert.equal(uri.success, false);
  assert.equal(uri.message, 'initialize: pathFormat "uri" is not supported: rt\'s debug adapter takes file paths ("path", the default)');
});

test("bad arguments get an error answer naming the field, not an internal error or a stack", async (t) => {
  const dap = rawAdapter(t);
  await dap.response(dap.send("initialize", { adapterID: "rt" }));
  const cases = [
    ["launch", { program: 42 }, 'launch: "program" must be a string, not 42'],
    ["launch", { program: APP, args: "--verbose" }, 'launch: "args" must be an array of strings, not "--verbose"'],
    ["launch", { program: APP, env: { PORT: 8080 } }, 'launch: "env" must be an object of string or null values, not an object with "PORT": 8080'],
    [
      "launch",
      { program: APP, console: "externalTerminal" },
      'launch: "console" must be one of "internalConsole", "integratedTerminal", not "externalTerminal"',
    ],
    ["attach", { port: "9229" }, 'attach: "port" must be a number, not "9229"'],
    ["setBreakpoints", undefined, 'setBreakpoints needs arguments: an object with "source"'],
    ["setBreakpoints", { source: {} }, 'setBreakpoints: "source" needs "path" (the file\'s path)'],
    ["setBreakpoints", { source: { path: APP }, breakpoints: [{ line: "3" }] }, 'setBreakpoints: "breakpoints" must be an array of { "line": number, ... }'],
    ["stackTrace", {}, 'stackTrace needs "threadId" (a number)'],
    ["evaluate", { expression: 1 }, 'evaluate: "expression" must be a string, not 1'],
  ];
  for (const [command, args, message] of cases) {
    const response = await dap.response(dap.send(command, args));
    assert.deepEqual([command, response.success, response.message], [command, false, message]);
  }
  assert.ok(dap.alive());
  assert.equal(dap.stderr(), "");
});

test("a message that is not JSON, a bad Content-Length (negative, too short, too long) and a header without one: each reported and skipped, the session goes on to hit its breakpoint", async (t) => {
  const dap = rawAdapter(t);
  dap.write(dap.frame("{not json"));
  await dap.output(/^rt debug adapter: skipped a message \(Content-Length 9\): not JSON \(.+\)\n$/);
  const initialize = dap.send("initialize", { adapterID: "rt" });
  assert.equal((await dap.response(initialize)).success, true);
  const threads = JSON.stringify({ seq: 100, type: "request", command: "threads" });
  dap.write(`Content-Type: application/json\r\n\r\n${threads}`);
  await dap.output(/skipped a message header without Content-Length: "Content-Type: application\/json"/);
  dap.write(`Content-Length: -5\r\n\r\n${threads}`);
  await dap.output(/skipped a message with an unusable Content-Length "-5": it must be the body's length in bytes/);
  dap.write(`Content-Length: 10\r\n\r\n${threads}`);
  await dap.output(/skipped a message \(Content-Length 10\): not JSON/);
  // Too long: the next message's header shows up inside the body; that message is not lost.
  dap.write(`Content-Length: 500\r\n\r\n${threads}`);
  const afterTooLong = dap.send("threads");
  await dap.output(/skipped a message whose Content-Length \(500\) is larger than the message \(\d+ bytes\)/);
  assert.equal((await dap.response(afterTooLong)).success, true);
  // Each skipped message is said once on stderr too, for the editor's adapter log.
  assert.equal(
    dap
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("rt-debug-adapter: skipped")).length,
    5,
  );

  const launch = dap.send("launch", { program: APP, runtimeExecutable: RT_BIN });
  await dap.take((message) => message.event === "initialized", "the initialized event");
  const set = await dap.response(dap.send("setBreakpoints", { source: { path: APP }, breakpoints: [{ line: 13 }] }));
  assert.equal(set.success, true);
  dap.write("garbage between messages\r\n");
  dap.send("configurationDone");
  assert.equal((await dap.response(launch)).success, true);
  const stopped = await dap.take((message) => message.event === "stopped", "a stop");
  assert.equal(stopped.body.reason, "breakpoint");
  dap.send("continue", { threadId: 1 });
  const exited = await dap.take((message) => message.event === "exited", "the program's end");
  assert.equal(exited.body.exitCode, 0);
  assert.equal((await dap.response(dap.send("disconnect", {}))).success, true);
});
