// rt.runtimePath as a bare name is looked up on PATH, as a shell would; one that names no rt gets
// one message, the same whatever the user started (Run File, Debug File, F5), and nothing starts:
// no debug session, so no offer from VS Code to open a launch.json.
const assert = require("node:assert/strict");
const { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const vscode = require("vscode");
const { eventually, folder, outputLines, taskExit, path } = require("./support.cjs");

const SETTING = "rt.runtimePath";

/** Sets rt.runtimePath for the workspace and waits until the extension has read it. */
async function setRuntimePath(value) {
  await vscode.workspace.getConfiguration().update(SETTING, value, vscode.ConfigurationTarget.Workspace);
  await eventually(() => vscode.workspace.getConfiguration().get(SETTING) === (value ?? ""), `${SETTING} = ${value}`);
}

suite("rt.runtimePath", () => {
  const debugMe = () => vscode.Uri.file(path.join(folder("app").uri.fsPath, "debug-me.ts"));
  const savedPath = process.env.PATH;
  let dir;

  setup(() => {
    dir = mkdtempSync(path.join(tmpdir(), "rt-runtime-path-"));
  });
  teardown(async () => {
    // The extension host's PATH is the one the extension looks names up on.
    process.env.PATH = savedPath;
    await setRuntimePath(undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  test("`rt` is looked up on PATH, and that rt runs the file", async () => {
    // An `rt` on PATH that notes each start, then runs the bundled rt.
    const appTask = (await vscode.tasks.fetchTasks({ type: "rt" })).find((task) => task.scope?.name === "app");
    const bundled = path.join(appTask.execution.options.env.PATH.split(path.delimiter)[0], "rt");
    const starts = path.join(dir, "starts.txt");
    writeFileSync(path.join(dir, "rt"), `#!/bin/sh\necho "$*" >> '${starts}'\nexec '${bundled}' "$@"\n`, { mode: 0o755 });
    process.env.PATH = `${dir}${path.delimiter}${savedPath}`;
    await setRuntimePath("rt");
    const execution = await vscode.commands.executeCommand("rt.runFile", debugMe());
    assert.ok(execution, "Run File started a task");
    assert.equal(await taskExit(execution), 0);
    assert.match(readFileSync(starts, "utf8"), /debug-me\.ts/, "the rt found on PATH ran the file");
  });

  test("a name that is not on PATH: one message, the same from Run File, Debug File and F5, and nothing starts", async () => {
    const missing = "rt-not-installed-here";
    const message = `rt: cannot use the rt set in ${SETTING} (${missing}): ${missing} was not found on PATH`;
    const said = () => outputLines().filter((line) => line.includes("rt: cannot use"));
    const before = said().length;
    let sessions = 0;
    const cleanups = [];
    const listener = vscode.debug.onDidStartDebugSession(() => sessions++);
    try {
      await setRuntimePath(missing);
      await vscode.window.showTextDocument(debugMe());
      assert.equal(await vscode.commands.executeCommand("rt.runFile", debugMe()), undefined, "Run File started nothing");
      assert.equal(await vscode.commands.executeCommand("rt.debugFile", debugMe()), false, "Debug File started nothing");
      assert.equal(await vscode.commands.executeCommand("rt.f5"), false, "F5 started nothing");
      // A task of tasks.json: VS Code asks the provider to resolve it, and it is not run.
      const tasksJson = path.join(folder("app").uri.fsPath, ".vscode", "tasks.json");
      mkdirSync(path.dirname(tasksJson), { recursive: true });
      writeFileSync(tasksJson, JSON.stringify({ version: "2.0.0", tasks: [{ type: "rt", script: "start", label: "from tasks.json" }] }));
      cleanups.push(() => rmSync(tasksJson, { force: true }));
      const fetched = await eventually(async () => {
        const tasks = await vscode.tasks.fetchTasks({ type: "rt" });
        return said().length - before >= 5 ? tasks : undefined;
      }, "tasks.json's task resolved");
      assert.ok(!fetched.some((task) => task.name === "from tasks.json" && task.execution), "the tasks.json task got no execution");
      // The setting's change said it too (as activation does): five times in all, one text.
      const lines = await eventually(() => (said().length - before >= 5 ? said().slice(before) : undefined), "the messages in the rt output channel");
      for (const line of lines) assert.ok(line.endsWith(message), `${line}\nis not\n${message}`);
      assert.equal(sessions, 0, "no debug session started");
      assert.ok(!existsSync(path.join(folder("app").uri.fsPath, ".vscode", "launch.json")), "no launch.json was created");
    } finally {
      listener.dispose();
      for (const cleanup of cleanups) cleanup();
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    }
  });
});
