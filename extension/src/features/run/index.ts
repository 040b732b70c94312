// Run File (editor title button) and Run Script (command palette, the language server's lenses):
// both start an "rt" task, so output, exit code and problem matchers work as for any task.
import * as path from "node:path";
import * as vscode from "vscode";
import { COMMANDS } from "../../contributions.js";
import { fileTarget, scriptTarget } from "../../target.js";
import { usableRuntime } from "../runtime/index.js";
import { fileTask, scriptTask } from "../tasks/task.js";

export function register(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.commands.registerCommand(COMMANDS.runFile.id, runFile), vscode.commands.registerCommand(COMMANDS.runScript.id, runScript));
}

/** Returns the task's execution (undefined if nothing ran), so callers can follow it. */
async function runFile(resource?: unknown): Promise<vscode.TaskExecution | undefined> {
  const file = await fileTarget(resource);
  if (!file) return undefined;
  const executable = await usableRuntime(vscode.Uri.file(file));
  if (!executable) return undefined;
  if (!vscode.workspace.workspaceFolders?.length) {
    // A window with no folder has no task scope to run in: a terminal that runs rt instead.
    vscode.window.createTerminal({ name: `rt ${path.basename(file)}`, shellPath: executable, shellArgs: [file], cwd: path.dirname(file) }).show();
    return undefined;
  }
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file));
  return vscode.tasks.executeTask(fileTask(executable, folder, file));
}

async function runScript(argument?: unknown): Promise<vscode.TaskExecution | undefined> {
  const target = await scriptTarget(argument, "run");
  if (!target) return undefined;
  const executable = await usableRuntime(vscode.Uri.file(target.packageDir));
  if (!executable) return undefined;
  return vscode.tasks.executeTask(scriptTask(executable, target.folder, target.packageDir, target.script));
}
