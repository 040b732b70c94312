// DAP under any timing. The adapter driven by Microsoft's own client for testing debug adapters
// (@vscode/debugadapter-testsupport's DebugClient): launch to a breakpoint, a step, a child
// process's session. Then by a client that takes each order DAP allows (timing.mjs): breakpoints
// before launch, during it, after its answer, configurationDone late, and rt slow to start; each
// must stop at the breakpoint. timing-stress.mjs runs the same orders many times on a loaded machine.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, test } from "node:test";
import { DebugClient } from "@vscode/debugadapter-testsupport";
import { ADAPTER, FIXTURES, RT_BIN } from "./dap.mjs";
import { APP, ORDERINGS, runOrdering, slowRt } from "./timing.mjs";

const CHILDREN = path.join(FIXTURES, "children");

/** DebugClient ignores the adapter's requests: this one answers startDebugging (a child process's session). */
class RtDebugClient extends DebugClient {
  constructor() {
    super(process.execPath, ADAPTER, "rt");
    this.defaultTimeout = 30_000;
  }

  dispatch(body) {
    const message = JSON.parse(body);
    if (message.type === "request") this.emit(`request:${message.command}`, message);
    else super.dispatch(body);
  }

  answer(request, success) {
    const json = JSON.stringify({ seq: 0, type: "response", request_seq: request.seq, command: request.command, success });
    this.outputStream.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
  }
}

async function started(t) {
  const client = new RtDebugClient();
  await client.start();
  t.after(() => client.stop());
  return client;
}

describe("Microsoft's DebugClient", () => {
  test("launch to a breakpoint in app.ts, a step, continue to the end", async (t) => {
    const client = await started(t);
    await client.hitBreakpoint(
      { program: APP, runtimeExecutable: RT_BIN },
      // Not loaded when set: verified once the file loads.
      { path: APP, line: 13, verified: false },
    );
    await Promise.all([client.nextRequest({ threadId: 1 }), client.assertStoppedLocation("step", { path: APP, line: 14 })]);
    await Promise.all([client.continueRequest({ threadId: 1 }), client.waitForEvent("terminated")]);
  });

  test("a child process's session: startDebugging answered, the child attached and stopped at its breakpoint", async (t) => {
    const parent = await started(t);
    const CHILD = path.join(CHILDREN, "child.ts");
    const childStopped = new Promise((resolve, reject) => {
      let first = true;
      parent.on("request:startDebugging", async (request) => {
        // The first child (forked) gets a session; the others are declined and run undebugged.
        parent.answer(request, first);
        if (!first) return;
        first = false;
        try {
          const child = await started(t);
          const since = performance.now();
          // (DebugClient's waitForEvent sees only events after it is called.)
          const initialized = child.waitForEvent("initialized");
          await child.initializeRequest({ adapterID: "rt", pathFormat: "path", linesStartAt1: true, columnsStartAt1: true });
          const attached = child.attachRequest(request.arguments.configuration);
          await initialized;
          await child.setBreakpointsRequest({ source: { path: CHILD }, breakpoints: [{ line: 4 }] });
          await child.configurationDoneRequest();
          await attached;
          await child.assertStoppedLocation("breakpoint", { path: CHILD, line: 4 });
          const ms = performance.now() - since;
          await Promise.all([child.continueRequest({ threadId: 1 }), child.waitForEvent("terminated")]);
          resolve(ms);
        } catch (error) {
          reject(error);
        }
      });
    });
    // (Its configurationSequence() sends configurationDone only after its own launch(), which
    // can't say the client starts child sessions.)
    const configured = parent.waitForEvent("initialized").then(() => parent.configurationDoneRequest());
    await parent.initializeRequest({ adapterID: "rt", pathFormat: "path", supportsStartDebuggingRequest: true });
    await Promise.all([parent.launchRequest({ program: path.join(CHILDREN, "main.ts"), runtimeExecutable: RT_BIN }), configured]);
    // It took ~12 s when the attach waited for its configuration timeout.
    assert.ok((await childStopped) < 5000);
    await parent.waitForEvent("terminated");
  });
});

describe("every order DAP allows stops at the breakpoint", () => {
  for (const ordering of Object.keys(ORDERINGS)) {
    test(ordering, async (t) => {
      const { stopped, ms } = await runOrdering(t, ordering);
      assert.ok(stopped, `no stop at app.ts:13 (${Math.round(ms)} ms)`);
      // The configuration timeout (10 s) is never what lets the program run.
      assert.ok(ms < 8000, `${Math.round(ms)} ms`);
    });
  }
  test("rt slow to start (1 s), breakpoints after launch's answer", async (t) => {
    const { stopped, ms } = await runOrdering(t, "breakpoints after launch's answer", { runtimeExecutable: slowRt(1000) });
    assert.ok(stopped, `no stop at app.ts:13 (${Math.round(ms)} ms)`);
    assert.ok(ms >= 1000 && ms < 9000, `${Math.round(ms)} ms`);
  });
});
