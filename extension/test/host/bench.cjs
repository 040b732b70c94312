// The figures bench/vscode.mjs reports, measured inside the extension host, each side by side with
// VS Code's own peer in the same round (round-robin, random order): the rt task list against the
// built-in npm extension's (same package.json files), and F5 -> first breakpoint with rt's
// debugger against VS Code's JavaScript debugger running the same .ts on Node 24 (type stripping).
const assert = require("node:assert/strict");
const { readFileSync } = require("node:fs");
const vscode = require("vscode");
const { EXTENSION_ID, folder, followSession, metric, path, pressContinue } = require("./support.cjs");

const ROUNDS = Number(process.env.RT_BENCH_ROUNDS || 10);

/** `start` begins a session (of `type`, "*" for any); resolves with the time to its first stop. */
async function toBreakpoint(start, type) {
  const follow = followSession(type);
  try {
    const t0 = performance.now();
    assert.equal(await start(), true);
    await follow.until(() => follow.seen.stopped.length > 0, `the ${type} session to stop`);
    const elapsed = follow.seen.stopped[0].at - t0;
    await pressContinue();
    await follow.terminated;
    return elapsed;
  } finally {
    follow.dispose();
  }
}

suite("bench", () => {
  test(`${ROUNDS} rounds`, async function () {
    this.timeout(0);
    const api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    metric("activationMs", api.activationMs);
    const file = path.join(folder("app").uri.fsPath, "debug-me.ts");
    const line = readFileSync(file, "utf8")
      .split("\n")
      .findIndex((text) => text.includes("const dy"));
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(file), new vscode.Position(line, 0)))]);
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    const rows = {
      "tasks rt": async () => {
        const t0 = performance.now();
        const tasks = await vscode.tasks.fetchTasks({ type: "rt" });
        metric("rtTasks", tasks.length);
        return performance.now() - t0;
      },
      "tasks npm": async () => {
        const t0 = performance.now();
        const tasks = await vscode.tasks.fetchTasks({ type: "npm" });
        metric("npmTasks", tasks.length);
        return performance.now() - t0;
      },
      "F5 rt": () => toBreakpoint(() => vscode.debug.startDebugging(folder("app"), { type: "rt", name: "", request: "" }), "rt"),
      // The editor title's Debug File button (and F5's keybinding in a folder that uses rt).
      "DebugFile rt": () => toBreakpoint(() => vscode.commands.executeCommand("rt.debugFile", vscode.Uri.file(file)), "rt"),
      // js-debug runs the program in a child session of its own: follow every session type. Node 24
      // (the extension host's) runs the .ts itself (type stripping).
      "F5 node": () =>
        toBreakpoint(
          () =>
            vscode.debug.startDebugging(folder("app"), {
              type: "node",
              request: "launch",
              name: "node",
              runtimeExecutable: process.execPath,
              program: file,
              cwd: path.dirname(file),
            }),
          "*",
        ),
    };
    const results = Object.fromEntries(Object.keys(rows).map((name) => [name, []]));
    for (let round = 0; round < ROUNDS + 1; round++) {
      const order = Object.keys(rows).sort(() => Math.random() - 0.5);
      for (const name of order) {
        const value = await rows[name]();
        if (round > 0) results[name].push(Math.round(value * 10) / 10);
        // Round 0 warms up; its rt task list is the cold one (rt started for every folder).
        else if (name === "tasks rt") metric("coldTasksMs", Math.round(value));
      }
    }
    metric("rounds", results);
  });
});
