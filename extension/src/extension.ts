// The rt extension: each feature registers itself; this file is only the list.
import type * as vscode from "vscode";
import { register as debug } from "./features/debug/index.js";
import { register as language } from "./features/language/index.js";
import { register as run } from "./features/run/index.js";
import { register as runtime } from "./features/runtime/index.js";
import { register as secrets } from "./features/secrets/index.js";
import { register as statusBar } from "./features/status-bar/index.js";
import { register as tasks } from "./features/tasks/index.js";
import { register as terminal } from "./features/terminal/index.js";

declare const __rtLoadStart: number;
// Imports are evaluated before this line: the time to load the bundle.
const loadMs = performance.now() - __rtLoadStart;

/** What activate() returns: other extensions and the tests read the activation time from it. */
export interface RtExtensionApi {
  /**
   * Milliseconds of activation: loading the bundle plus running activate(), as VS Code counts
   * it (code loading + activate call), without the host's own work between the two.
   */
  readonly activationMs: number;
}

export function activate(context: vscode.ExtensionContext): RtExtensionApi {
  const started = performance.now();
  for (const register of [runtime, statusBar, terminal, tasks, run, debug, secrets, language]) register(context);
  return { activationMs: loadMs + performance.now() - started };
}

export function deactivate(): void {}
