// A status bar item with the version of the rt in use (a warning when it cannot be used).
import * as vscode from "vscode";
import { COMMANDS } from "../../contributions.js";
import { onDidChangeRuntime, runtime, type RuntimeInfo } from "../../rt-executable.js";

const SOURCE_NAMES: Record<RuntimeInfo["source"], string> = { bundled: "bundled with the extension", setting: "rt.runtimePath", project: "the project's" };

export function register(context: vscode.ExtensionContext): void {
  const item = vscode.window.createStatusBarItem("rt.version", vscode.StatusBarAlignment.Right, 100);
  item.name = "rt version";
  const show = (info: RuntimeInfo) => {
    if (info.version.ok) {
      item.text = `rt ${info.version.value}`;
      item.tooltip = `rt ${info.version.value} (${SOURCE_NAMES[info.source]}): ${info.executable}`;
      item.command = COMMANDS.showOutput.id;
      item.backgroundColor = undefined;
    } else {
      item.text = "$(warning) rt";
      item.tooltip = `rt cannot be used: ${info.version.problem}`;
      item.command = COMMANDS.configurePath.id;
      item.backgroundColor = new vscode.ThemeColor("statusBarItem.warningBackground");
    }
    item.show();
  };
  context.subscriptions.push(item, onDidChangeRuntime(show));
  void runtime().then(show);
}
