// Which rt the extension runs: the one the rt.runtimePath setting names; else the project's own
// (node_modules/rt-runtime of the workspace folder or an ancestor, as the ESLint and Prettier
// extensions prefer the workspace's version), when it runs; else the runtime bundled in the
// extension. A runtime package is started by a small `rt` launcher script (kept in the
// extension's global storage) that runs it on the extension host's own Node (through its
// compiled front where the package has one), so tasks, the debugger and the integrated terminal
// all have one executable path to start, whatever Node the machine has.
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { constants, existsSync, openSync, readSync, closeSync } from "node:fs";
import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import { lookUpOnPath } from "rt-debug-adapter";
import { LAYOUT, MIN_RT_VERSION, SETTINGS } from "./contributions.js";
import { output } from "./output.js";

export interface RuntimeInfo {
  /** The executable to start (`rt` launcher of a runtime package, or the configured path). */
  readonly executable: string;
  readonly source: "bundled" | "setting" | "project";
  /** `rt --version`, or the reason it could not be read. */
  readonly version: { readonly ok: true; readonly value: string } | { readonly ok: false; readonly problem: string };
}

/** The package users install rt as; the project's rt is this package in its node_modules. */
const RUNTIME_PACKAGE = "rt-runtime";
const isWindows = process.platform === "win32";
const onDidChange = new vscode.EventEmitter<RuntimeInfo>();
let context: vscode.ExtensionContext | undefined;
type Chosen = Pick<RuntimeInfo, "executable" | "source">;
/** The rt to start per project runtime folder ("" for a scope without one), launcher written and checked. */
const executables = new Map<string, Promise<Chosen>>();
let current: Promise<RuntimeInfo> | undefined;
let nodeOnPath: Promise<string | undefined> | undefined;
/** Each executable's `rt --version`, read once. */
const versions = new Map<string, Promise<RuntimeInfo["version"]>>();

/** Fires when the runtime changes (setting edited) and its version has been read. */
export const onDidChangeRuntime = onDidChange.event;

export function initRuntime(extensionContext: vscode.ExtensionContext): void {
  context = extensionContext;
  extensionContext.subscriptions.push(
    onDidChange,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SETTINGS.runtimePath.id)) return;
      executables.clear();
      versions.clear();
      current = undefined;
      void runtime().then((info) => onDidChange.fire(info));
    }),
  );
}

/** The runtime of the first workspace folder (the status bar's, the terminal's), its version read. */
export function runtime(): Promise<RuntimeInfo> {
  current ??= resolveRuntime(vscode.workspace.workspaceFolders?.[0]?.uri);
  return current;
}

/**
 * The path of the rt to start for `scope` (a file or folder: its project's rt), without waiting
 * for its version (what tasks and sessions need: a missing rt is reported by the version check
 * and by the start itself).
 */
export async function runtimeExecutable(scope?: vscode.Uri): Promise<string> {
  return (await chooseRuntime(scope)).executable;
}

function chooseRuntime(scope: vscode.Uri | undefined): Promise<Chosen> {
  const project = configuredPath() || !scope ? undefined : projectRuntime(scope.fsPath);
  const key = project ?? "";
  let found = executables.get(key);
  if (!found) {
    found = project ? projectExecutable(project) : resolveExecutable();
    executables.set(key, found);
  }
  return found;
}

async function resolveExecutable(): Promise<Chosen> {
  const configured = configuredPath();
  if (configured) return { executable: onPath(expandHome(configured)), source: "setting" };
  return { executable: await writeLauncher(path.join(context!.extensionPath, LAYOUT.runtime)), source: "bundled" };
}

function configuredPath(): string {
  return vscode.workspace.getConfiguration().get<string>(SETTINGS.runtimePath.id, "").trim();
}

/** node_modules/rt-runtime of `dir` or its nearest ancestor that has one, as Node resolves it. */
function projectRuntime(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, "node_modules", RUNTIME_PACKAGE);
    if (existsSync(path.join(candidate, "bin", "rt.cjs"))) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * The project's rt when it runs (its version is read once); else the bundled one, and the user
 * is told once per project and problem, with the fix.
 */
async function projectExecutable(dir: string): Promise<Chosen> {
  const launcher = await writeLauncher(dir, `project-${createHash("sha256").update(dir).digest("hex").slice(0, 12)}`);
  const version = await versionOf(launcher);
  if (version.ok) {
    return { executable: launcher, source: "project" };
  }
  output().error(`rt (project) at ${dir}: ${version.problem}`);
  const told = `rt.projectRuntimeProblem:${dir}`;
  if (context!.workspaceState.get(told) !== version.problem) {
    void context!.workspaceState.update(told, version.problem);
    const message =
      `rt: this project's rt (${dir}) cannot run: ${version.problem}. Using the rt bundled with the extension. ` +
      `To use the project's, reinstall it (npm install -D ${RUNTIME_PACKAGE}) or name one in ${SETTINGS.runtimePath.id}.`;
    output().warn(message);
    void vscode.window.showWarningMessage(message);
  }
  return resolveExecutable();
}

/** The folder of the launchers. */
function launcherDir(): string {
  if (!context) throw new Error("rt: the runtime is used before the extension activated");
  return path.join(context.globalStorageUri.fsPath, "bin");
}

async function resolveRuntime(scope: vscode.Uri | undefined): Promise<RuntimeInfo> {
  const info = await checkedRuntime(scope);
  const { executable, source, version } = info;
  if (version.ok) output().info(`rt ${version.value} (${source}): ${executable}`);
  else output().error(`rt (${source}) at ${executable}: ${version.problem}`);
  return info;
}

/**
 * The rt for `scope` with its version (read once per executable): what a session or a run
 * checks before it starts, so that an rt that cannot run is reported one way, whatever started it.
 */
export async function checkedRuntime(scope?: vscode.Uri): Promise<RuntimeInfo> {
  const { executable, source } = await chooseRuntime(scope);
  return { executable, source, version: await versionOf(executable) };
}

function versionOf(executable: string): Promise<RuntimeInfo["version"]> {
  let version = versions.get(executable);
  if (!version) versions.set(executable, (version = readVersion(executable)));
  return version;
}

/** A bare name (`rt`) is looked up on PATH, as a shell would; a path is taken as it is. */
function onPath(name: string): string {
  if (name.includes("/") || name.includes("\\")) return name;
  return lookUpOnPath(name) ?? name;
}

function expandHome(file: string): string {
  return file.startsWith("~/") ? path.join(process.env.HOME ?? "", file.slice(2)) : file;
}

/** The runtime package's compiled front: dist/rt as built, or bin/rt where npm installed one there (a binary, not the script). */
async function compiledFront(runtimeDir: string): Promise<string | undefined> {
  const exe = isWindows ? ".exe" : "";
  const candidates = [path.join(runtimeDir, LAYOUT.runtimeFront.slice(LAYOUT.runtime.length + 1) + exe), path.join(runtimeDir, "bin", `rt${exe}`)];
  for (const file of candidates) {
    const executable = await access(file, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (executable && !startsWithShebang(file)) return file;
  }
  return undefined;
}

function startsWithShebang(file: string): boolean {
  const fd = openSync(file, "r");
  const head = Buffer.alloc(2);
  readSync(fd, head, 0, 2, 0);
  closeSync(fd);
  return head.toString("latin1") === "#!";
}

/**
 * The directory of a `node` that runs on this extension host's Node, to put first on the PATH of
 * what rt starts when the machine's `node` cannot run rt (missing, or older than 22.15): a
 * script that calls `rt` (the project's, in node_modules/.bin) then finds a Node it runs on.
 * Undefined when the machine's node will do.
 */
function hostNodeDir(): Promise<string | undefined> {
  nodeOnPath ??= new Promise<string | undefined>((resolve) => {
    execFile("node", ["--version"], { timeout: 10_000, shell: isWindows }, (error, stdout) => {
      const [major = 0, minor = 0] = stdout.trim().replace(/^v/, "").split(".").map(Number);
      resolve(!error && (major > 22 || (major === 22 && minor >= 15)) ? undefined : writeHostNode());
    });
  });
  return nodeOnPath;
}

async function writeHostNode(): Promise<string> {
  const dir = path.join(context!.globalStorageUri.fsPath, "node");
  const electron = process.versions["electron"] !== undefined;
  const [name, text] = isWindows
    ? ["node.cmd", `@echo off\r\n${electron ? "set ELECTRON_RUN_AS_NODE=1\r\n" : ""}"${process.execPath}" %*\r\n`]
    : ["node", `#!/bin/sh\n${electron ? "ELECTRON_RUN_AS_NODE=1 " : ""}exec ${shellQuote(process.execPath)} "$@"\n`];
  await writeIfChanged(path.join(dir, name), text);
  return dir;
}

/**
 * Writes the launcher of the runtime package in `runtimeDir` (in `folder` of the launchers' own:
 * a project's has one of its own), unless it is already current. It
 * starts the runtime on this extension host's Node (in desktop VS Code, Electron acting as Node):
 * through the runtime's compiled front when the package has one (it runs package.json scripts
 * without starting Node, and hands everything else to the runtime on the Node RT_NODE names).
 */
async function writeLauncher(runtimeDir: string, folder = ""): Promise<string> {
  const main = path.join(runtimeDir, "bin", "rt.cjs");
  const front = await compiledFront(runtimeDir);
  const node = process.execPath;
  const electron = process.versions["electron"] !== undefined;
  const nodeDir = await hostNodeDir();
  const file = path.join(launcherDir(), folder, isWindows ? "rt.cmd" : "rt");
  let text: string;
  if (isWindows) {
    const start = front ? `set "RT_NODE=${node}"\r\n"${front}" %*` : `"${node}" -- "${main}" %*`;
    text = `@echo off\r\n${electron ? "set ELECTRON_RUN_AS_NODE=1\r\n" : ""}${nodeDir ? `set "PATH=${nodeDir};%PATH%"\r\n` : ""}${start}\r\n`;
  } else {
    const env = `${electron ? "ELECTRON_RUN_AS_NODE=1 " : ""}${nodeDir ? `PATH=${shellQuote(nodeDir)}:"$PATH" ` : ""}`;
    const start = front ? `${env}RT_NODE=${shellQuote(node)} exec ${shellQuote(front)} "$@"` : `${env}exec ${shellQuote(node)} -- ${shellQuote(main)} "$@"`;
    text = `#!/bin/sh\n# rt (${runtimeDir}), started by the rt VS Code extension\n${start}\n`;
  }
  await writeIfChanged(file, text);
  return file;
}

async function writeIfChanged(file: string, text: string): Promise<void> {
  const existing = await readFile(file, "utf8").catch(() => undefined);
  if (existing === text) return;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, { mode: 0o755 });
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
        if (failed?.code === "ENOENT")
          resolve({ code: null, stdout, stderr, error: path.isAbsolute(executable) ? `${executable} does not exist` : `${executable} was not found on PATH` });
        else if (failed?.code === "EACCES") resolve({ code: null, stdout, stderr, error: `${executable} is not executable` });
        else if (failed?.killed) resolve({ code: null, stdout, stderr, error: `rt did not finish within ${options.timeout ?? 60_000} ms` });
        else resolve({ code: typeof failed?.code === "number" ? failed.code : failed ? 1 : 0, stdout, stderr });
      },
    );
  });
}
