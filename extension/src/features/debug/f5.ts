// F5 with no launch.json on a TypeScript file of a folder that uses rt (rt in its package.json, an
// rtfig.toml, or an rt.* setting of the workspace) starts rt's debugger on the file. VS Code's own
// F5 would ask which debugger to use (its JavaScript debugger claims TypeScript too); the
// extension's F5 keybinding takes over only where the context key below holds, so elsewhere VS
// Code's usual choice stays.
import { readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import { CONTEXT_KEYS, SETTINGS } from "../../contributions.js";

const TYPESCRIPT = new Set([".ts", ".tsx", ".mts", ".cts"]);
/** `rt` as a command in a package.json script (`rt app.ts`, `… && rt run build`). */
const RT_COMMAND = /(^|[\s;&|(])rt(\s|$)/;

/** `preload`: called when F5 would debug the active file, to get the first session ready. */
export function registerF5(context: vscode.ExtensionContext, preload: () => void): void {
  const folders = new Map<string, Promise<boolean>>();
  let current: boolean | undefined;
  const update = async () => {
    const value = await debugsActiveFile(folders);
    if (value) preload();
    if (value === current) return;
    current = value;
    await vscode.commands.executeCommand("setContext", CONTEXT_KEYS.f5DebugsFile, value);
  };
  // Every folder is read at once, not when its first TypeScript file opens: F5 pressed right after
  // opening one finds the answer ready (reading package.json then could lose that race).
  const reread = () => {
    folders.clear();
    for (const folder of vscode.workspace.workspaceFolders ?? []) folders.set(folder.uri.fsPath, usesRt(folder));
    void update();
  };
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(() => void update()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("launch") || event.affectsConfiguration("rt")) reread();
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (["package.json", "rtfig.toml"].includes(path.basename(document.uri.fsPath))) reread();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(reread),
  );
  reread();
}

async function debugsActiveFile(folders: Map<string, Promise<boolean>>): Promise<boolean> {
  const uri = vscode.window.activeTextEditor?.document.uri;
  if (uri?.scheme !== "file" || !TYPESCRIPT.has(path.extname(uri.fsPath))) return false;
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder || hasLaunchConfigurations(folder)) return false;
  let uses = folders.get(folder.uri.fsPath);
  if (!uses) folders.set(folder.uri.fsPath, (uses = usesRt(folder)));
  return uses;
}

function hasLaunchConfigurations(folder: vscode.WorkspaceFolder): boolean {
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
    const dependencies = ["dependencies", "devDependencies", "optionalDependencies"].some((field) => manifest[field]?.["rt"] !== undefined);
    return dependencies || Object.values(manifest["scripts"] ?? {}).some((script) => typeof script === "string" && RT_COMMAND.test(script));
  } catch {
    return false;
  }
}
