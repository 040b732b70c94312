// The "rt" task provider: one task per package.json script of every package in every
// workspace folder (multi-root workspaces and monorepos alike).
import * as vscode from "vscode";
import { TASK_TYPE } from "../../contributions.js";
import { output } from "../../output.js";
import { onDidChangeRuntime, runtimeExecutable } from "../../rt-executable.js";
import { usableRuntime } from "../runtime/index.js";
import { listScripts, type Script } from "./scripts.js";
import { fileTask, packageDirOf, scriptTask, type RtTaskDefinition } from "./task.js";

/** Each folder's listing, until a package.json (or the rt in use) changes: rt runs once per change. */
const listings = new Map<string, Promise<Script[]>>();

export function register(context: vscode.ExtensionContext): void {
  const watcher = vscode.workspace.createFileSystemWatcher("**/package.json");
  const forget = (uri: vscode.Uri) => {
    for (const folder of listings.keys()) if (uri.fsPath.startsWith(folder)) listings.delete(folder);
  };
  context.subscriptions.push(
    vscode.tasks.registerTaskProvider(TASK_TYPE, { provideTasks, resolveTask }),
    watcher,
    watcher.onDidChange(forget),
    watcher.onDidCreate(forget),
    watcher.onDidDelete(forget),
    onDidChangeRuntime(() => listings.clear()),
    vscode.workspace.onDidChangeWorkspaceFolders(({ added }) => added.forEach((folder) => void scriptsOf(folder.uri.fsPath))),
  );
  // Listed now, in the background, so the first Run Task finds the list ready.
  for (const folder of vscode.workspace.workspaceFolders ?? []) void scriptsOf(folder.uri.fsPath);
}

function scriptsOf(folder: string): Promise<Script[]> {
  let listing = listings.get(folder);
  if (!listing) {
    listing = listScripts(folder);
    listings.set(folder, listing);
  }
  return listing;
}

export async function provideTasks(): Promise<vscode.Task[]> {
  const started = performance.now();
  const folders = vscode.workspace.workspaceFolders ?? [];
  const perFolder = await Promise.all(
    folders.map(async (folder) => {
      const [executable, scripts] = await Promise.all([runtimeExecutable(folder.uri), scriptsOf(folder.uri.fsPath)]);
      return scripts.map((script) => scriptTask(executable, folder, script.dir, script.name, script.command));
    }),
  );
  const tasks = perFolder.flat();
  output().debug(`listed ${tasks.length} rt tasks in ${folders.length} folder(s) in ${Math.round(performance.now() - started)} ms`);
  return tasks;
}

/**
 * Tasks written in tasks.json: `{ "type": "rt", "script": "build", "packageDir": "packages/a" }`.
 * An rt that cannot run gets the one message Run File and F5 give, not the terminal's failure.
 */
async function resolveTask(task: vscode.Task): Promise<vscode.Task | undefined> {
  const definition = task.definition as RtTaskDefinition;
  const folder = typeof task.scope === "object" ? task.scope : undefined;
  const executable = await usableRuntime(folder?.uri);
  if (!executable) return undefined;
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
