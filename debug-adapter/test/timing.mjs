// A DAP client that takes every order DAP allows, for debug-adapter/test/timing.test.mjs (one run
// each) and timing-stress.mjs (many runs on a loaded machine): breakpoints set before the launch
// request, after launch's answer, configurationDone late, and rt slow to start (a wrapper that
// sleeps before it runs rt). Each run launches app.ts with a breakpoint in distance() (called
// once) and reports whether it stopped there and how long launch -> first stop took.
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DapClient, FIXTURES, RT_BIN } from "./dap.mjs";

export const APP = path.join(FIXTURES, "basic", "app.ts");
const LINE = 13;
const INITIALIZE = { adapterID: "rt", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An rt that takes `ms` to start: a shell script that sleeps, then runs rt with this Node. */
export function slowRt(ms = 1000) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "rt-slow-")), "rt");
  writeFileSync(file, `#!/bin/sh\nsleep ${ms / 1000}\nexec "${process.execPath}" "${RT_BIN}" "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Sends launch, noting when: the time measured is launch -> first stop, as `npm run bench:debug` measures it. */
const launch = (dap, args) => {
  dap.launchedAt = performance.now();
  return dap.raw("launch", args);
};
const setBreakpoints = (dap) => dap.request("setBreakpoints", { source: { path: APP }, breakpoints: [{ line: LINE }] });

/** Each ordering: what the client sends, given the launch request's arguments; resolves once configured. */
export const ORDERINGS = {
  /** As VS Code does: launch, then breakpoints and configurationDone on `initialized`, launch's answer whenever. */
  "breakpoints during launch": async (dap, args) => {
    await dap.request("initialize", INITIALIZE);
    const launched = launch(dap, args);
    await dap.event("initialized");
    await setBreakpoints(dap);
    await dap.request("configurationDone");
    return launched;
  },
  /** Breakpoints (on `initialized`) before the launch request is even sent. */
  "breakpoints before launch": async (dap, args) => {
    await dap.request("initialize", INITIALIZE);
    await dap.event("initialized");
    await setBreakpoints(dap);
    const launched = launch(dap, args);
    await dap.request("configurationDone");
    return launched;
  },
  /** A client that waits for launch's answer before it configures (nvim-dap, dap-mode, hand-written ones). */
  "breakpoints after launch's answer": async (dap, args) => {
    await dap.request("initialize", INITIALIZE);
    const launched = await launch(dap, args);
    await dap.event("initialized");
    await setBreakpoints(dap);
    await dap.request("configurationDone");
    return launched;
  },
  /** configurationDone half a second after the breakpoints. */
  "configurationDone late": async (dap, args) => {
    await dap.request("initialize", INITIALIZE);
    const launched = launch(dap, args);
    await dap.event("initialized");
    await setBreakpoints(dap);
    await sleep(500);
    await dap.request("configurationDone");
    return launched;
  },
};

/**
 * One session: `ordering` with rt (or `runtimeExecutable`); resolves { stopped, ms } where
 * `stopped` is whether the breakpoint was hit before the program ended and `ms` is launch -> stop.
 */
export async function runOrdering(t, ordering, { runtimeExecutable = RT_BIN } = {}) {
  const dap = DapClient.start(t);
  // (`exited` ends the race, not `terminated`: that one is awaited below.)
  const firstStop = Promise.race([
    dap.event("stopped", () => true, 60_000).then((body) => ({ body })),
    dap.event("exited", () => true, 60_000).then(() => ({})),
  ]);
  const launched = await ORDERINGS[ordering](dap, { program: APP, runtimeExecutable });
  if (!launched.success) throw new Error(`launch: ${launched.message}`);
  const { body } = await firstStop;
  const ms = performance.now() - dap.launchedAt;
  let stopped = false;
  if (body) {
    const frame = await dap.topFrame();
    stopped = body.reason === "breakpoint" && frame.source.path === APP && frame.line === LINE;
    await dap.request("continue", { threadId: 1 });
  }
  await dap.event("terminated", () => true, 60_000);
  if (!t) dap.close();
  return { stopped, ms };
}
