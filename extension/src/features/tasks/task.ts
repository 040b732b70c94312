// Tasks of type "rt": `rt run <script>` in the package's folder (so pre<script> and post<script>
// run too), or `rt <file>` for Run File. Started as a process, never through a shell.
import * as path from "node:path";
import * as vscode from "vscode";
import { TASK_TYPE } from "../../contributions.js";

export interface RtTaskDefinition extends vscode.TaskDefinition {
  readonly type: typeof TASK_TYPE;
  /** A package.json script, run with `rt run <script>`. */
  readonly script?: string;
  /** The folder of that package.json: absolute, or relative to the workspace folder. */
  readonly packageDir?: string;
  /** A source file, run with `rt <file>` (Run File). */
  readonly file?: string;
}

// Their owner is not the language client's ("rt"): a task that starts clears its matchers' problems only.
export const PROBLEM_MATCHERS = ["$rt", "$rt-uncaught", "$rt-config"];

/**
 * rt started by its name, its folder first on PATH: the task's header reads `rt run dev`, not the
 * launcher's long path in the extension's storage, and scripts that call `rt` run the same one.
 */
function rtExecution(executable: string, args: string[], cwd: string): vscode.ProcessExecution {
  const env = { PATH: `${path.dirname(executable)}${path.delimiter}${process.env["PATH"] ?? ""}` };
  return new vscode.ProcessExecution(path.basename(executable), args, { cwd, env });
}

/** The folder a task definition's packageDir names (the workspace folder when it names none). */
export function packageDirOf(definition: RtTaskDefinition, scope: vscode.WorkspaceFolder | vscode.TaskScope | undefined): string | undefined {
  const base = typeof scope === "object" ? scope.uri.fsPath : undefined;
  if (!definition.packageDir) return base;
  const dir = definition.packageDir.replace("${workspaceFolder}", base ?? "");
  return path.isAbsolute(dir) ? dir : base && path.join(base, dir);
}

export function scriptTask(executable: string, folder: vscode.WorkspaceFolder | undefined, packageDir: string, script: string, detail?: string): vscode.Task {
  const definition: RtTaskDefinition = { type: TASK_TYPE, script, packageDir };
  const relative = folder ? path.relative(folder.uri.fsPath, packageDir) : packageDir;
  const name = relative ? `${script} - ${relative.split(path.sep).join("/")}` : script;
  const execution = rtExecution(executable, ["run", script], packageDir);
  const task = new vscode.Task(definition, folder ?? vscode.TaskScope.Workspace, name, TASK_TYPE, execution, PROBLEM_MATCHERS);
  // The npm extension lists the same script with its body as the detail: this one says it runs through rt.
  task.detail = detail === undefined ? undefined : `rt run ${script}: ${detail}`;
  if (script === "build") task.group = vscode.TaskGroup.Build;
  else if (script === "test") task.group = vscode.TaskGroup.Test;
  return task;
}

export function fileTask(executable: string, folder: vscode.WorkspaceFolder | undefined, file: string): vscode.Task {
  const definition: RtTaskDefinition = { type: TASK_TYPE, file };
  const cwd = folder?.uri.fsPath ?? path.dirname(file);
  const execution = rtExecution(executable, [file], cwd);
  const task = new vscode.Task(definition, folder ?? vscode.TaskScope.Workspace, path.basename(file), TASK_TYPE, execution, PROBLEM_MATCHERS);
  task.presentationOptions = { clear: true, focus: false, reveal: vscode.TaskRevealKind.Always };
  return task;
}
