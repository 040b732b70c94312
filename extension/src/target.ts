// What Run/Debug File and Run/Debug Script act on, checked the same way for both, with a
// message that says what is missing when the command cannot run.
import { access } from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import { RUNNABLE_EXTENSIONS } from "./contributions.js";
import { provideTasks } from "./features/tasks/index.js";
import type { RtTaskDefinition } from "./features/tasks/task.js";

/** The argument of rt.runScript and rt.debugScript (the language server's lenses pass it). */
export interface ScriptTarget {
  /** File-system path of the folder holding package.json. */
  readonly packageDir: string;
  readonly script: string;
}

/**
 * The file the editor area shows: the active text editor's, else the active tab's. Right after a
 * file opens (Quick Open, with the panel just hidden) the extension host can have no active text
 * editor for a moment: an F5 pressed then found none and went to VS Code's own F5 (its debugger
 * picker), seen in the UI test. The tab is known by then; so is it when the focus is in a panel
 * whose input is an editor of its own (the Debug Console, Output: not files).
 */
export async function editorDocument(): Promise<vscode.TextDocument | undefined> {
  const active = vscode.window.activeTextEditor?.document;
  if (active?.uri.scheme === "file") return active;
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (tab instanceof vscode.TabInputText && tab.uri.scheme === "file") return vscode.workspace.openTextDocument(tab.uri);
  return active;
}

/** The file to run: the editor title's resource, else the one the editor area shows; saved first. */
export async function fileTarget(resource: unknown): Promise<string | undefined> {
  const uri = resource instanceof vscode.Uri ? resource : (await editorDocument())?.uri;
  if (!uri) {
    void vscode.window.showErrorMessage("rt: open a TypeScript or JavaScript file to run it.");
    return undefined;
  }
  if (uri.scheme !== "file" || !(RUNNABLE_EXTENSIONS as readonly string[]).includes(path.extname(uri.fsPath))) {
    void vscode.window.showErrorMessage(`rt: ${path.basename(uri.fsPath)} is not a file rt runs (${RUNNABLE_EXTENSIONS.join(", ")} on disk).`);
    return undefined;
  }
  const document = vscode.workspace.textDocuments.find((open) => open.uri.toString() === uri.toString());
  if (document?.isDirty) await document.save();
  return uri.fsPath;
}

/**
 * The script to run: the argument when given (checked), else one picked from every workspace
 * folder's scripts. Undefined, after saying why, when there is none.
 */
export async function scriptTarget(argument: unknown, verb: "run" | "debug"): Promise<(ScriptTarget & { folder?: vscode.WorkspaceFolder }) | undefined> {
  if (isScriptTarget(argument)) {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(argument.packageDir));
    const manifest = path.join(argument.packageDir, "package.json");
    if (
      !(await access(manifest).then(
        () => true,
        () => false,
      ))
    ) {
      void vscode.window.showErrorMessage(`rt: cannot ${verb} script "${argument.script}": there is no package.json in ${argument.packageDir}.`);
      return undefined;
    }
    return { ...argument, folder };
  }
  if (!vscode.workspace.workspaceFolders?.length) {
    void vscode.window.showErrorMessage(`rt: open a folder with a package.json to ${verb} one of its scripts.`);
    return undefined;
  }
  const tasks = await provideTasks();
  if (tasks.length === 0) {
    void vscode.window.showErrorMessage(
      `rt: no scripts to ${verb}: no workspace folder has a package.json with a "scripts" field (see the rt output for details).`,
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    tasks.map((task) => ({ label: task.name, description: task.detail, task })),
    { title: `rt: ${verb === "run" ? "Run" : "Debug"} Script`, placeHolder: "Pick a package.json script", matchOnDescription: true },
  );
  if (!picked) return undefined;
  const definition = picked.task.definition as RtTaskDefinition;
  const folder = typeof picked.task.scope === "object" ? picked.task.scope : undefined;
  return { packageDir: definition.packageDir!, script: definition.script!, folder };
}

function isScriptTarget(value: unknown): value is ScriptTarget {
  return (
    typeof value === "object" && value !== null && typeof (value as ScriptTarget).packageDir === "string" && typeof (value as ScriptTarget).script === "string"
  );
}
