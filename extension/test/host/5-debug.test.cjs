// The debugger: a breakpoint added through the API in a TypeScript file, a session started the
// way Debug File and F5 (no launch.json) start one, the top stack frame at the breakpoint's line,
// then continue to the program's end.
const assert = require("node:assert/strict");
const { readFileSync } = require("node:fs");
const vscode = require("vscode");
const { folder, followSession, metric, path, pressContinue } = require("./support.cjs");

async function debugToBreakpoint(start, metricName) {
  const file = path.join(folder("app").uri.fsPath, "debug-me.ts");
  const uri = vscode.Uri.file(file);
  const line = readFileSync(file, "utf8").split("\n").findIndex((text) => text.includes("const dy"));
  const breakpoint = new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(line, 0)));
  vscode.debug.addBreakpoints([breakpoint]);
  await vscode.window.showTextDocument(uri);
  const follow = followSession();
  try {
    const t0 = performance.now();
    assert.equal(await start(uri), true, "the session started");
    const session = await follow.started;
    assert.equal(session.type, "rt");
    await follow.until(() => follow.seen.stopped.length > 0, "the breakpoint to be hit");
    metric(metricName, Math.round(follow.seen.stopped[0].at - t0));
    assert.equal(follow.seen.stopped[0].reason, "breakpoint");
    const { stackFrames } = await session.customRequest("stackTrace", { threadId: follow.seen.stopped[0].threadId, startFrame: 0, levels: 5 });
    assert.equal(stackFrames[0].name, "distance");
    // Over code-server's remote connection the path comes back as a vscode-remote: URI.
    const framePath = stackFrames[0].source.path;
    assert.equal(framePath.includes("://") ? vscode.Uri.parse(framePath).path : framePath, file);
    assert.equal(stackFrames[0].line, line + 1, "stopped on the breakpoint's line (1-based in DAP)");
    // The Continue button's command (what a user presses), for the focused session and thread.
    await pressContinue();
    await follow.terminated;
    assert.match(follow.seen.output, /distance: 5/);
    assert.equal(follow.seen.exitCode, 0);
  } finally {
    follow.dispose();
    vscode.debug.removeBreakpoints([breakpoint]);
  }
}

suite("debugger", () => {
  test("Debug File stops at a breakpoint in a .ts file, shows the top stack frame, continues to the end", async () => {
    await debugToBreakpoint((uri) => vscode.commands.executeCommand("rt.debugFile", uri), "debugFileToBreakpointMs");
  });

  test("F5 with no launch.json (an empty configuration) debugs the active file", async () => {
    await debugToBreakpoint(() => vscode.debug.startDebugging(folder("app"), { type: "rt", name: "", request: "" }), "f5ToBreakpointMs");
  });

  test("Debug Script (the lens's command) debugs the rt process `rt run debug-me` starts", async () => {
    await debugToBreakpoint(() => vscode.commands.executeCommand("rt.debugScript", { packageDir: folder("app").uri.fsPath, script: "debug-me" }), "debugScriptToBreakpointMs");
  });

  test("Debug Script for a folder without package.json starts nothing", async () => {
    const started = await vscode.commands.executeCommand("rt.debugScript", { packageDir: folder("empty").uri.fsPath, script: "nothing" });
    assert.equal(started, false);
  });
});
