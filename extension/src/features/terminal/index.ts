// `rt` in the integrated terminal: the folder holding the rt in use goes first on PATH of every
// terminal VS Code opens (the bundled runtime's launcher, or the rt.runtimePath's folder).
import * as path from "node:path";
import type * as vscode from "vscode";
import { onDidChangeRuntime, runtime, type RuntimeInfo } from "../../rt-executable.js";

export function register(context: vscode.ExtensionContext): void {
  const environment = context.environmentVariableCollection;
  environment.description = "Puts `rt` on PATH";
  const apply = (info: RuntimeInfo) => {
    environment.prepend("PATH", path.dirname(info.executable) + path.delimiter);
  };
  context.subscriptions.push(onDidChangeRuntime(apply));
  void runtime().then(apply);
}
