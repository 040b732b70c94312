// The "rt" task provider: one task per package.json script of every package in every
// workspace folder (multi-root workspaces and monorepos alike).
import * as vscode from "vscode";
import { TASK_TYPE } from "../../contributions.js";
import { output } from "../../output.js";
import { runtime } from "../../runtime/runtime.js";
import { listScripts } from "./scripts.js";
import { fileTask, packageDirOf, scriptTask, type RtTaskDefinition } from "./task.js";

export function register(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.tasks.registerTaskProvider(TASK_TYPE, { provideTasks, resolveTask }));
}

export async function provideTasks(): Promise<vscode.Task[]> {
  const started = performance.now();
  const { executable } = await runtime();
  const folders = vscode.workspace.workspaceFolders ?? [];
  const perFolder = await Promise.all(
    folders.map(async (folder) => (await listScripts(folder.uri.fsPath)).map((script) => scriptTask(executable, folder, script.dir, script.name, script.command))),
  );
  const tasks = perFolder.flat();
  output().debug(`listed ${tasks.length} rt tasks in ${folders.length} folder(s) in ${Math.round(performance.now() - started)} ms`);
  return tasks;
}

/** Tasks written in tasks.json: `{ "type": "rt", "script": "build", "packageDir": "packages/a" }`. */
async function resolveTask(task: vscode.Task): Promise<vscode.Task | undefined> {
  const definition = task.definition as RtTaskDefinition;
  const { executable } = await runtime();
  const folder = typeof task.scope === "object" ? task.scope : undefined;
  let resolved: vscode.Task;
  if (definition.script) {
    const dir = packageDirOf(definition, task.scope);
    if (!dir) return undefined;
    resolved = scriptTask(executable, folder, dir, definition.script);
  } else if (definition.file) {
    resolved = fileTask(executable, folder, definition.file);
  } else {
    return undefined;
  }
  // VS Code matches the resolved task to tasks.json's entry by this very definition object.
  return new vscode.Task(definition, task.scope ?? vscode.TaskScope.Workspace, task.name, TASK_TYPE, resolved.execution, resolved.problemMatchers);
}
