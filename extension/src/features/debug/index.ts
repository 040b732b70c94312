// Placeholder until the debug adapter lands: Debug File and Debug Script.
import type * as vscode from "vscode";

export function register(_context: vscode.ExtensionContext): void {}
