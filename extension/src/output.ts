// The "rt" output channel: what the extension did and why something failed (never a secret).
import * as vscode from "vscode";

let channel: vscode.LogOutputChannel | undefined;

export function output(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel("rt", { log: true });
  return channel;
}
