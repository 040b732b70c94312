// F5 with no launch.json in a folder that uses rt (rt in its package.json, an rtfig.toml, or an
// rt.* setting of the workspace) starts rt's debugger on the project's program (program.ts):
// VS Code's own F5 would ask which debugger to use (its JavaScript debugger claims TypeScript
// too). The keybinding holds in every window with such a folder, whatever editor is active: a
// context key that followed the active editor reached the workbench a round trip after the
// switch, and an F5 pressed in between (right after switching editors or ending a session) got
// VS Code's picker. The command itself decides, with the file the editor area shows now
// (target.ts: editorDocument), and hands anything that is not rt's (another folder, a
// launch.json, no editor) to VS Code's own F5, saying why in the rt output channel.
import { readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import { COMMANDS, CONTEXT_KEYS, SETTINGS } from "../../contributions.js";
import { output } from "../../output.js";
import { editorDocument } from "../../target.js";
import { type Program, programFor } from "./program.js";

/** `rt` as a command in a package.json script (`rt app.ts`, `… && rt run build`). */
const RT_COMMAND = /(^|[\s;&|(])rt(\s|$)/;
/** VS Code's own F5 (Start Debugging). */
const VSCODE_F5 = "workbench.action.debug.start";

/**
 * `preload`: called when F5 would start rt's debugger, to get the first session ready.
 * `start`: starts the session of a program F5 picked.
 */
export function registerF5(
  context: vscode.ExtensionContext,
  preload: () => void,
  start: (folder: vscode.WorkspaceFolder, program: Program) => Thenable<boolean>,
): void {
  const folders = new Map<string, Promise<boolean>>();
  let current: boolean | undefined;
  // Every folder is read at once, at activation: F5 pressed right after the window opens finds
  // the answer ready.
  const reread = async () => {
    folders.clear();
    const all = vscode.workspace.workspaceFolders ?? [];
    for (const folder of all) folders.set(folder.uri.fsPath, usesRt(folder));
    const value = (await Promise.all(all.map((folder) => folders.get(folder.uri.fsPath)))).some(Boolean);
    if (value) preload();
    if (value === current) return;
    current = value;
    await vscode.commands.executeCommand("setContext", CONTEXT_KEYS.f5, value);
  };
  const f5 = async (): Promise<unknown> => {
    const document = await editorDocument();
    const folder = document?.uri.scheme === "file" ? vscode.workspace.getWorkspaceFolder(document.uri) : undefined;
    const notRt = !document
      ? "no editor is active"
      : !folder
        ? `${document.uri.scheme === "file" ? document.uri.fsPath : document.uri.toString()} is not a file of a workspace folder`
        : hasLaunchConfigurations(folder)
          ? `${folder.name} has a launch.json`
          : !(await (folders.get(folder.uri.fsPath) ?? usesRt(folder)))
            ? `${folder.name} does not use rt`
            : undefined;
    if (notRt || !document || !folder) {
      // Said in the rt output channel: why F5 brought up VS Code's own start (maybe its picker).
      output().info(`F5: ${notRt}: VS Code's own F5 starts debugging`);
      return vscode.commands.executeCommand(VSCODE_F5);
    }
    const program = await programFor(document.uri.fsPath, folder.uri.fsPath, document.getText());
    if (!program) {
      void vscode.window.showErrorMessage(
        `rt: F5 found no program to debug: ${path.basename(document.uri.fsPath)} is not a file rt runs and the package names no entry ("main" or a "start" script in package.json).`,
      );
      return false;
    }
    return start(folder, program);
  };
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.f5.id, f5),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("rt")) void reread();
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (["package.json", "rtfig.toml"].includes(path.basename(document.uri.fsPath))) void reread();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void reread()),
  );
  void reread();
}

/** A launch.json of the folder (or the workspace) has configurations: VS Code's F5 runs them. */
export function hasLaunchConfigurations(folder: vscode.WorkspaceFolder): boolean {
  const launch = vscode.workspace.getConfiguration("launch", folder.uri);
  return launch.get<unknown[]>("configurations", []).length > 0 || launch.get<unknown[]>("compounds", []).length > 0;
}

async function usesRt(folder: vscode.WorkspaceFolder): Promise<boolean> {
  const settings = vscode.workspace.getConfiguration(undefined, folder.uri);
  for (const { id } of Object.values(SETTINGS)) {
    const set = settings.inspect(id);
    if (set?.workspaceValue !== undefined || set?.workspaceFolderValue !== undefined) return true;
  }
  const root = folder.uri.fsPath;
  if (
    await stat(path.join(root, "rtfig.toml")).then(
      () => true,
      () => false,
    )
  )
    return true;
  try {
    const manifest = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as Record<string, Record<string, unknown> | undefined>;
    const dependencies = ["dependencies", "devDependencies", "optionalDependencies"].some(
      (field) => manifest[field]?.["rt"] !== undefined || manifest[field]?.["rt-runtime"] !== undefined,
    );
    return dependencies || Object.values(manifest["scripts"] ?? {}).some((script) => typeof script === "string" && RT_COMMAND.test(script));
  } catch {
    return false;
  }
}
