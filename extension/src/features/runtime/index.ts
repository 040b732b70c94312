// Finds the rt to use and says so when it is missing or too old, with a way to fix it.
import * as vscode from "vscode";
import { COMMANDS, SETTINGS } from "../../contributions.js";
import { output } from "../../output.js";
import { checkedRuntime, initRuntime, onDidChangeRuntime, runtime, type RuntimeInfo } from "../../rt-executable.js";

export function register(context: vscode.ExtensionContext): void {
  initRuntime(context);
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.configurePath.id, configurePath),
    vscode.commands.registerCommand(COMMANDS.showOutput.id, () => output().show()),
    onDidChangeRuntime(warnIfUnusable),
  );
  // After activation: reading the version starts a process, which activation does not wait for.
  void runtime().then(warnIfUnusable);
}

/**
 * rt.runtimePath is a machine setting: in a remote window (SSH, containers, code-server) it is
 * read from the remote machine's settings, which the User tab of the settings editor hides.
 */
function configurePath(): Thenable<unknown> {
  const command = vscode.env.remoteName ? "workbench.action.openRemoteSettings" : "workbench.action.openSettings";
  return vscode.commands.executeCommand(command, { query: SETTINGS.runtimePath.id });
}

/** The rt to run for `scope`; undefined, after the one message for it, when it cannot run. */
export async function usableRuntime(scope: vscode.Uri | undefined): Promise<string | undefined> {
  const info = await checkedRuntime(scope);
  if (info.version.ok) return info.executable;
  void warnIfUnusable(info);
  return undefined;
}

/** The one message for an rt that cannot run, whatever found out (activation, a task, a debug session). */
export async function warnIfUnusable(info: RuntimeInfo): Promise<void> {
  if (info.version.ok) return;
  const where =
    info.source === "setting"
      ? `the rt set in ${SETTINGS.runtimePath.id} (${info.executable})`
      : info.source === "project"
        ? `this project's rt (${info.executable})`
        : "the rt bundled with this extension";
  const message = `rt: cannot use ${where}: ${info.version.problem}`;
  // Also in the output channel, which keeps what a notification said after it is gone.
  output().error(message);
  const action = await vscode.window.showErrorMessage(message, "Configure path", "Show output");
  if (action === "Configure path") await vscode.commands.executeCommand(COMMANDS.configurePath.id);
  else if (action === "Show output") output().show();
}
