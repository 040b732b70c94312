// A workspace folder with its own rt (node_modules/rt-runtime) runs that one, as the ESLint and
// Prettier extensions prefer the workspace's version; a folder without one runs the bundled rt.
// A script that itself calls `rt` finds a working one (the project's, in node_modules/.bin). A
// project whose rt cannot run gets the bundled one, and the user is told once, with the fix.
const assert = require("node:assert/strict");
const { readFileSync, realpathSync, rmSync } = require("node:fs");
const vscode = require("vscode");
const { eventually, folder, outputLines, taskExit, path } = require("./support.cjs");

const extensionPath = () => vscode.extensions.getExtension("rt.rt-vscode").extensionPath;

async function task(folderName, name) {
  const found = (await vscode.tasks.fetchTasks({ type: "rt" })).find((task) => task.scope?.name === folderName && task.name === name);
  assert.ok(found, `task ${name} in ${folderName}`);
  return found;
}

/** Runs the task; returns what its `which` script recorded: the launcher of the rt that ran it. */
async function whichRt(name, folderName = "project") {
  const marker = path.join(folder(folderName).uri.fsPath, "which-rt.txt");
  rmSync(marker, { force: true });
  const code = await taskExit(await vscode.tasks.executeTask(await task(folderName, name)));
  assert.equal(code, 0, `task ${name} exited with ${code}`);
  return realpathSync(readFileSync(marker, "utf8"));
}

suite("the project's rt", () => {
  test("tasks of a folder with rt-runtime in node_modules start its rt, other folders the bundled one", async () => {
    const projectRt = realpathSync(path.join(folder("project").uri.fsPath, "node_modules", "rt-runtime"));
    assert.ok((await whichRt("which")).startsWith(projectRt + path.sep), "the script ran on the project's rt");
    const projectTask = await task("project", "which");
    const appTask = await task("app", "hello");
    // Each task starts `rt` (so its header reads `rt run …`): the launcher first on the task's
    // PATH, which names its runtime package.
    assert.equal(appTask.execution.process, "rt");
    const launcherOf = (task) => readFileSync(path.join(task.execution.options.env.PATH.split(path.delimiter)[0], "rt"), "utf8");
    assert.notEqual(launcherOf(projectTask), launcherOf(appTask));
    assert.ok(launcherOf(projectTask).includes(path.join(folder("project").uri.fsPath, "node_modules", "rt-runtime")), launcherOf(projectTask));
    assert.ok(launcherOf(appTask).includes(path.join(extensionPath(), "runtime")), launcherOf(appTask));
  });

  test("a script that calls rt itself finds the project's, and it runs", async () => {
    const ran = await whichRt("nested");
    const projectRt = realpathSync(path.join(folder("project").uri.fsPath, "node_modules", "rt-runtime"));
    assert.ok(ran.startsWith(projectRt + path.sep), `the nested rt is the project's, not the bundled one: ${ran}`);
  });

  test("a project whose rt cannot run: its tasks run on the bundled rt, and the user is told once, with the fix", async () => {
    const bundled = realpathSync(path.join(extensionPath(), "runtime"));
    for (let run = 1; run <= 3; run++) {
      const ran = await whichRt("which", "broken-rt");
      assert.ok(ran.startsWith(bundled + path.sep), `run ${run} is on the bundled rt: ${ran}`);
    }
    const told = () => outputLines().filter((line) => line.includes("this project's rt ("));
    await eventually(() => told().length > 0, "the warning in the rt output channel");
    assert.equal(told().length, 1, told().join("\n"));
    // What is wrong (the broken rt's own words) and what to do.
    assert.match(told()[0], /rt-runtime: this install is broken \(a test fixture\)\. Using the rt bundled with the extension\./);
    assert.match(told()[0], /reinstall it \(npm install -D rt-runtime\) or name one in rt\.runtimePath/);
  });
});
