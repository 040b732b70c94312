// Which rt the extension runs: the one the rt.runtimePath setting names, else the runtime bundled
// in the extension. The bundled one is a Node program, started by a small `rt` launcher script
// (kept in the extension's global storage) that runs it on the extension host's own Node (through
// its compiled front where the package has one), so tasks, the debugger and the integrated
// terminal all have one executable path to start.
import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import { LAYOUT, MIN_RT_VERSION, SETTINGS } from "./contributions.js";
import { output } from "./output.js";

export interface RuntimeInfo {
  /** The executable to start (`rt` launcher of the bundled runtime, or the configured path). */
  readonly executable: string;
  readonly source: "bundled" | "setting";
  /** `rt --version`, or the reason it could not be read. */
  readonly version: { readonly ok: true; readonly value: string } | { readonly ok: false; readonly problem: string };
}

const isWindows = process.platform === "win32";
const onDidChange = new vscode.EventEmitter<RuntimeInfo>();
let context: vscode.ExtensionContext | undefined;
let currentExecutable: Promise<string> | undefined;
let current: Promise<RuntimeInfo> | undefined;

/** Fires when the runtime changes (setting edited) and its version has been read. */
export const onDidChangeRuntime = onDidChange.event;

export function initRuntime(extensionContext: vscode.ExtensionContext): void {
  context = extensionContext;
  extensionContext.subscriptions.push(
    onDidChange,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SETTINGS.runtimePath.id)) return;
      currentExecutable = undefined;
      current = undefined;
      void runtime().then((info) => onDidChange.fire(info));
    }),
  );
}

/** The current runtime, its launcher written and its version read (once per setting value). */
export function runtime(): Promise<RuntimeInfo> {
  current ??= resolveRuntime();
  return current;
}

/**
 * The path of the rt to start, without waiting for its version (what tasks and sessions need:
 * a missing rt is reported by the version check and by the start itself).
 */
export function runtimeExecutable(): Promise<string> {
  currentExecutable ??= resolveExecutable();
  return currentExecutable;
}

async function resolveExecutable(): Promise<string> {
  const configured = configuredPath();
  return configured ? expandHome(configured) : writeLauncher();
}

function configuredPath(): string {
  return vscode.workspace.getConfiguration().get<string>(SETTINGS.runtimePath.id, "").trim();
}

/** The folder of the bundled runtime's `rt` launcher. */
function launcherDir(): string {
  if (!context) throw new Error("rt: the runtime is used before the extension activated");
  return path.join(context.globalStorageUri.fsPath, "bin");
}

async function resolveRuntime(): Promise<RuntimeInfo> {
  const source = configuredPath() ? "setting" : "bundled";
  const executable = await runtimeExecutable();
  const version = await readVersion(executable);
  const info: RuntimeInfo = { executable, source, version };
  if (version.ok) output().info(`rt ${version.value} (${source}): ${executable}`);
  else output().error(`rt (${source}) at ${executable}: ${version.problem}`);
  return info;
}

function expandHome(file: string): string {
  return file.startsWith("~/") ? path.join(process.env.HOME ?? "", file.slice(2)) : file;
}

/**
 * Writes the launcher of the bundled runtime, unless it is already current. It starts the
 * runtime on this extension host's Node (in desktop VS Code, Electron acting as Node): through
 * the runtime's compiled front when the package has one (it runs package.json scripts without
 * starting Node, and hands everything else to the runtime on the Node RT_NODE names).
 */
async function writeLauncher(): Promise<string> {
  const main = path.join(context!.extensionPath, LAYOUT.runtimeBin);
  const front = path.join(context!.extensionPath, LAYOUT.runtimeFront);
  const node = process.execPath;
  const electron = process.versions["electron"] !== undefined;
  const file = path.join(launcherDir(), isWindows ? "rt.cmd" : "rt");
  const asNode = electron ? "ELECTRON_RUN_AS_NODE=1 " : "";
  const start =
    !isWindows &&
    (await access(front, constants.X_OK).then(
      () => true,
      () => false,
    ))
      ? `${asNode}RT_NODE=${shellQuote(node)} exec ${shellQuote(front)} "$@"`
      : `${asNode}exec ${shellQuote(node)} -- ${shellQuote(main)} "$@"`;
  const text = isWindows
    ? `@echo off\r\n${electron ? "set ELECTRON_RUN_AS_NODE=1\r\n" : ""}"${node}" -- "${main}" %*\r\n`
    : `#!/bin/sh\n# rt, bundled with the rt VS Code extension\n${start}\n`;
  const existing = await readFile(file, "utf8").catch(() => undefined);
  if (existing !== text) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text, { mode: 0o755 });
  }
  return file;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

async function readVersion(executable: string): Promise<RuntimeInfo["version"]> {
  const result = await runRt(executable, ["--version"], { timeout: 15_000 });
  if (result.error) return { ok: false, problem: result.error };
  if (result.code !== 0) return { ok: false, problem: result.stderr.trim().split("\n")[0] || `\`rt --version\` exited with code ${result.code}` };
  // "0.2.0 (Node.js v24.1.0 at /usr/bin/node)": the version is the first word.
  const value = result.stdout.trim().split(" ")[0] ?? "";
  if (!/^\d+\.\d+\.\d+/.test(value))
    return { ok: false, problem: `\`rt --version\` printed ${JSON.stringify(value.slice(0, 80))}, not a version: is this rt?` };
  if (compareVersions(value, MIN_RT_VERSION) < 0) return { ok: false, problem: `rt ${value} is too old: this extension needs rt ${MIN_RT_VERSION} or newer` };
  return { ok: true, value };
}

function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.split(/[.+-]/, 3).map((part) => Number.parseInt(part, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

export interface RtResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Why rt could not be started or did not finish; undefined when it ran (whatever its exit code). */
  readonly error?: string;
}

/** Runs `rt ...args` to completion (never through a shell: names are passed as they are). */
export function runRt(executable: string, args: readonly string[], options: { cwd?: string; timeout?: number } = {}): Promise<RtResult> {
  return new Promise((resolve) => {
    // A .cmd launcher needs cmd.exe to start.
    const shell = isWindows && executable.toLowerCase().endsWith(".cmd");
    execFile(
      executable,
      args,
      { cwd: options.cwd, timeout: options.timeout ?? 60_000, shell, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        const failed = error as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
        if (failed?.code === "ENOENT") resolve({ code: null, stdout, stderr, error: `${executable} does not exist` });
        else if (failed?.code === "EACCES") resolve({ code: null, stdout, stderr, error: `${executable} is not executable` });
        else if (failed?.killed) resolve({ code: null, stdout, stderr, error: `rt did not finish within ${options.timeout ?? 60_000} ms` });
        else resolve({ code: typeof failed?.code === "number" ? failed.code : failed ? 1 : 0, stdout, stderr });
      },
    );
  });
}
