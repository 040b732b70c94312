// Debugger type "rt": the adapter runs inline (in the extension host), F5 with no launch.json
// debugs the project's program (without VS Code asking which debugger in a folder that uses rt,
// f5.ts), "Debug: Select and Start Debugging" offers one configuration per package.json script,
// and Debug File / Debug Script start sessions directly.
import * as path from "node:path";
import * as vscode from "vscode";
import { COMMANDS, DEBUG_TYPE, RUNNABLE_EXTENSIONS } from "../../contributions.js";
import { runtimeExecutable } from "../../rt-executable.js";
import { editorDocument, fileTarget, scriptTarget } from "../../target.js";
import { usableRuntime } from "../runtime/index.js";
import { listScripts } from "../tasks/scripts.js";
import type * as Adapter from "./adapter.js";
import { registerF5 } from "./f5.js";
import { type Program, programFor } from "./program.js";

/** A launch configuration's note for the Debug Console (why F5 started another file than the active one). */
const NOTICE = "__rtNotice";

export function register(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, { createDebugAdapterDescriptor }),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
      provideDebugConfigurations: initialConfigurations,
      resolveDebugConfiguration,
      resolveDebugConfigurationWithSubstitutedVariables,
    }),
    vscode.debug.registerDebugConfigurationProvider(
      DEBUG_TYPE,
      { provideDebugConfigurations: scriptConfigurations },
      vscode.DebugConfigurationProviderTriggerKind.Dynamic,
    ),
    vscode.debug.registerDebugAdapterTrackerFactory(DEBUG_TYPE, { createDebugAdapterTracker: showConsoleOnFailure }),
    vscode.commands.registerCommand(COMMANDS.debugFile.id, debugFile),
    vscode.commands.registerCommand(COMMANDS.debugScript.id, debugScript),
  );
  registerF5(context, preloadAdapter, (folder, program) => startSession(folder, programConfiguration(program, folder)));
  // A program started ahead of a session that never came is ended with the extension.
  context.subscriptions.push({ dispose: () => loadedAdapter?.discardPrelaunched() });
}

/**
 * A program that ends with an error before it ever paused (a syntax error, a failed import) has
 * said why in the Debug Console: show it, wherever the panel was.
 */
function showConsoleOnFailure(session: vscode.DebugSession): vscode.DebugAdapterTracker | undefined {
  if (session.parentSession) return undefined;
  let paused = false;
  return {
    onDidSendMessage(message: { type?: string; event?: string; body?: { exitCode?: number } }) {
      if (message.type !== "event") return;
      if (message.event === "stopped") paused = true;
      else if (message.event === "exited" && message.body?.exitCode !== 0 && !paused) void vscode.commands.executeCommand("workbench.debug.action.focusRepl");
    },
  };
}

let loadedAdapter: typeof Adapter | undefined;

/** The adapter's bundle (~200 KB), loaded for the first session or ahead of it (see preloadAdapter). */
function adapterModule(): typeof Adapter {
  loadedAdapter ??= require("./debug-adapter.cjs") as typeof Adapter;
  return loadedAdapter;
}

/**
 * A TypeScript file of a folder that uses rt is open (F5 would debug it): load the adapter and
 * resolve the runtime now, while the user reads the file, not when they ask for a session.
 */
let preloaded = false;
export function preloadAdapter(): void {
  if (preloaded) return;
  preloaded = true;
  setTimeout(() => {
    adapterModule();
    void runtimeExecutable();
  }, 0);
}

async function createDebugAdapterDescriptor(session: vscode.DebugSession): Promise<vscode.DebugAdapterDescriptor> {
  const executable = await runtimeExecutable(scopeOf(session.configuration) ?? session.workspaceFolder?.uri);
  const { RtDebugSession: Session } = adapterModule();
  const adapter = new Session({ runtimeExecutable: executable });
  const notice = session.configuration[NOTICE];
  if (typeof notice === "string") {
    // Said before the program's first output: as the launch request arrives.
    const handle = adapter.handleMessage.bind(adapter);
    adapter.handleMessage = (message) => {
      if (message.type === "request" && (message as { command?: string }).command === "launch") {
        adapter.sendEvent({ type: "event", event: "output", seq: 0, body: { category: "console", output: notice } } as DebugProtocolOutputEvent);
      }
      handle(message);
    };
  }
  // The session is a DAP implementation object; VS Code's inline adapter type is structural.
  return new vscode.DebugAdapterInlineImplementation(adapter as unknown as vscode.DebugAdapter);
}

type DebugProtocolOutputEvent = Parameters<Adapter.RtDebugSession["sendEvent"]>[0];

function fileConfiguration(file: string, folder: vscode.WorkspaceFolder | undefined): vscode.DebugConfiguration {
  return { type: DEBUG_TYPE, request: "launch", name: `Debug ${path.basename(file)}`, program: file, cwd: folder?.uri.fsPath ?? path.dirname(file) };
}

function programConfiguration(program: Program, folder: vscode.WorkspaceFolder): vscode.DebugConfiguration {
  return { ...fileConfiguration(program.file, folder), ...(program.notice ? { [NOTICE]: program.notice } : {}) };
}

function scriptConfiguration(packageDir: string, script: string, label = script): vscode.DebugConfiguration {
  return { type: DEBUG_TYPE, request: "launch", name: `rt run ${label}`, script, cwd: packageDir };
}

/** What "Add Configuration" writes into a new launch.json. */
function initialConfigurations(): vscode.DebugConfiguration[] {
  return [
    { type: DEBUG_TYPE, request: "launch", name: "Debug the current file", program: "${file}", cwd: "${workspaceFolder}" },
    { type: DEBUG_TYPE, request: "attach", name: "Attach to rt --inspect", url: "ws://127.0.0.1:9229/" },
  ];
}

/**
 * F5 with no launch.json (an empty configuration): debug the active editor's file, or its
 * package's entry when the file is not a program (known now: it starts now).
 */
async function resolveDebugConfiguration(
  folder: vscode.WorkspaceFolder | undefined,
  configuration: vscode.DebugConfiguration,
): Promise<vscode.DebugConfiguration | undefined> {
  if (configuration["request"] || configuration["program"] || configuration["script"]) return configuration;
  const document = await editorDocument();
  const root = document && (folder ?? vscode.workspace.getWorkspaceFolder(document.uri));
  const program =
    document?.uri.scheme !== "file"
      ? undefined
      : root
        ? await programFor(document.uri.fsPath, root.uri.fsPath, document.getText())
        : (RUNNABLE_EXTENSIONS as readonly string[]).includes(path.extname(document.uri.fsPath))
          ? { file: document.uri.fsPath }
          : undefined;
  if (!program) {
    void vscode.window.showErrorMessage(
      `rt: with no launch.json, F5 debugs the active file or its package's entry: open a ${RUNNABLE_EXTENSIONS.join(", ")} file first.`,
    );
    return undefined;
  }
  return readyToLaunch(root ? programConfiguration(program, root) : fileConfiguration(program.file, undefined));
}

/** The last step before VS Code starts the adapter (for launch.json's configurations, after `${…}` are replaced). */
function resolveDebugConfigurationWithSubstitutedVariables(
  _folder: vscode.WorkspaceFolder | undefined,
  configuration: vscode.DebugConfiguration,
): Promise<vscode.DebugConfiguration | undefined> {
  return readyToLaunch(configuration);
}

/** Where a launch runs, which picks the project's rt: its cwd, else its program's folder. */
function scopeOf(configuration: vscode.DebugConfiguration): vscode.Uri | undefined {
  const where = configuration["cwd"] ?? configuration["program"];
  return typeof where === "string" && path.isAbsolute(where) ? vscode.Uri.file(where) : undefined;
}

/**
 * A configuration as the adapter will get it, its program started ahead (see startSession) unless
 * a preLaunchTask (which VS Code runs after this) may write what rt reads as it starts. A launch
 * has the rt in use first on PATH, as tasks do, so a script that calls `rt` runs the same one.
 * Undefined (no session, and no offer to open launch.json) when that rt cannot run: the user
 * gets the one message the extension gives for it.
 */
async function readyToLaunch(configuration: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration | undefined> {
  if (configuration.request !== "launch") return configuration;
  const executable = await usableRuntime(scopeOf(configuration));
  if (!executable) return undefined;
  const env = (configuration["env"] ?? {}) as Record<string, string | null>;
  const ready =
    env["PATH"] !== undefined
      ? configuration
      : { ...configuration, env: { ...env, PATH: `${path.dirname(executable)}${path.delimiter}${process.env["PATH"] ?? ""}` } };
  if (!configuration["preLaunchTask"]) adapterModule().prelaunch(ready, executable);
  return ready;
}

/** "Debug: Select and Start Debugging" → rt: one configuration per script of the folder's packages. */
async function scriptConfigurations(folder: vscode.WorkspaceFolder | undefined): Promise<vscode.DebugConfiguration[]> {
  if (!folder) return [];
  const scripts = await listScripts(folder.uri.fsPath);
  return scripts.map((script) => {
    const relative = path.relative(folder.uri.fsPath, script.dir).split(path.sep).join("/");
    return scriptConfiguration(script.dir, script.name, relative ? `${script.name} (${relative})` : script.name);
  });
}

async function debugFile(resource?: unknown): Promise<boolean> {
  const file = await fileTarget(resource);
  if (!file) return false;
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file));
  return startSession(folder, fileConfiguration(file, folder));
}

async function debugScript(argument?: unknown): Promise<boolean> {
  const target = await scriptTarget(argument, "debug");
  if (!target) return false;
  return startSession(target.folder, scriptConfiguration(target.packageDir, target.script));
}

/**
 * Starts a session whose configuration is given whole (Debug File, Debug Script), as fast as the
 * editor allows. VS Code's own start saves the dirty editors and then reloads every configuration
 * file of the workspace (settings, launch.json, tasks.json of each folder) before it asks for the
 * configuration: 0.3–0.5 s in a remote window, for files these sessions never read. So they save
 * as debug.saveBeforeStart says and skip the reload; and the program starts now, while VS Code
 * sets the session up (the adapter's launch takes it over, see rt-debug-adapter's prelaunch).
 */
async function startSession(folder: vscode.WorkspaceFolder | undefined, configuration: vscode.DebugConfiguration): Promise<boolean> {
  const saveBeforeStart = vscode.workspace.getConfiguration("debug", vscode.window.activeTextEditor?.document).get<string>("saveBeforeStart");
  if (saveBeforeStart !== "none" && vscode.workspace.textDocuments.some((document) => document.isDirty && !document.isUntitled)) {
    await vscode.workspace.saveAll(false);
  }
  const ready = await readyToLaunch(configuration);
  if (!ready) return false;
  const started = await vscode.debug.startDebugging(folder, ready, { suppressSaveBeforeStart: true });
  if (!started) adapterModule().discardPrelaunched();
  return started;
}
