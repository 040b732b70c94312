// Macro expansion, shared by the runtime's transpiler and `rt build`: find the macro imports of a
// file, check them (--no-macros, node_modules), run the calls in the macro runner process and put
// each result where its call was. The import statements go: macro modules never reach the output.
// Lines are kept (removed text leaves its newlines), so source maps still point at the right lines.
import * as path from "node:path";
import { FLAGS } from "../flags/table.js";
import { flagValue, setFlagValue, type FlagValues } from "../flags/parse.js";
import { ProgramError } from "../errors.js";
import { readPackageJson } from "../loader/resolve.js";
import type { MacroRequest, MacroResponse } from "./protocol.js";
import { errorAt, type MacroPlan } from "./scan.js";

export interface MacroContext {
  /** False under --no-macros. */
  readonly allowed: boolean;
  /** The caller's flags; the runner gets the transpilation and resolution ones. */
  readonly values: FlagValues;
  readonly cacheRoot: string | undefined;
}

export interface PreparedMacros {
  readonly plan: MacroPlan;
  /** Absolute paths of the macro modules, by import. */
  readonly modules: readonly string[];
}

/**
 * The checked macro imports of a scanned file: `modules` are the macro modules as the caller's
 * resolver found them (rt's, or esbuild's), one per import, undefined where none was found.
 */
export function checkMacros(plan: MacroPlan, context: MacroContext, modules: readonly (string | undefined)[]): PreparedMacros {
  const { file, text } = plan;
  const first = plan.imports[0]!;
  if (macroDepth() >= MAX_DEPTH) {
    throw errorAt(
      file,
      text,
      first.start,
      `macros nest ${MAX_DEPTH} levels deep (a macro module imports macros, which import macros...): does a macro module import itself with { type: "macro" }?`,
      "ERR_MACRO_DEPTH",
    );
  }
  if (!context.allowed) {
    throw errorAt(
      file,
      text,
      first.start,
      `macro import of "${first.specifier}" refused: --no-macros forbids running code at build time (remove the flag, or import without { type: "macro" })`,
      "ERR_MACRO_REFUSED",
    );
  }
  if (inNodeModules(file))
    throw errorAt(file, text, first.start, "macros do not run from packages in node_modules: a dependency may not run code at build time", "ERR_MACRO_REFUSED");
  const checked = plan.imports.map((entry, i) => {
    const module = modules[i];
    if (!module) throw errorAt(file, text, entry.start, `cannot find macro module "${entry.specifier}"`, "ERR_MODULE_NOT_FOUND");
    if (inNodeModules(module) && packageNameOf(module) !== packageNameOf(path.join(process.cwd(), "[project]"))) {
      throw errorAt(
        file,
        text,
        entry.start,
        `macro module "${entry.specifier}" is in a package in node_modules: macros from packages are refused (they would run a dependency's code at build time); only the project's own package may provide macros`,
        "ERR_MACRO_REFUSED",
      );
    }
    return module;
  });
  return { plan, modules: checked };
}

/** Runs the macros in the runner process and returns the expanded source (synchronously: the module loader's hooks are). */
export function expandMacrosSync(prepared: PreparedMacros, context: MacroContext): string {
  const request = macroRequest(prepared, context);
  const child = childProcess().spawnSync(process.execPath, [RUNNER], {
    input: JSON.stringify(request),
    stdio: ["pipe", 2, 2, "pipe"],
    encoding: "utf8",
    env: runnerEnv(context.cacheRoot),
  });
  return applyResults(prepared, parseResponse(child.output?.[3] ?? "", child.status, child.error));
}

/** The same without blocking, for the bundler (several files expand at once). */
export function expandMacros(prepared: PreparedMacros, context: MacroContext): Promise<string> {
  const request = macroRequest(prepared, context);
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn(process.execPath, [RUNNER], { stdio: ["pipe", 2, 2, "pipe"], env: runnerEnv(context.cacheRoot) });
    let answer = "";
    (child.stdio[3] as NodeJS.ReadableStream).setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
    child.on("error", reject);
    child.on("close", (status) => {
      try {
        resolve(applyResults(prepared, parseResponse(answer, status)));
      } catch (error) {
        reject(error as Error);
      }
    });
    child.stdin!.end(JSON.stringify(request));
  });
}

const RUNNER = path.join(__dirname, "macro-runner.cjs");

// A macro module may itself use macros (its runner starts another); this bounds a cycle.
const DEPTH_ENV = "RT_MACRO_DEPTH";
const MAX_DEPTH = 8;
const macroDepth = (): number => Number(process.env[DEPTH_ENV]) || 0;
/** The runner's environment: one level deeper, and V8's code cache for its bundle (as the launcher enables it for rt's). */
function runnerEnv(cacheRoot: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, [DEPTH_ENV]: String(macroDepth() + 1) };
  if (cacheRoot && env.NODE_COMPILE_CACHE === undefined) env.NODE_COMPILE_CACHE = path.join(cacheRoot, "v8");
  return env;
}

// Required when a macro runs: the CLI bundle loads its imports at every start (~4 ms for this one).
function childProcess(): typeof import("node:child_process") {
  return require("node:child_process") as typeof import("node:child_process");
}

/** Flags the runner needs to load macro modules as the caller loads its files. */
const RUNNER_GROUPS = new Set(["transpilation", "resolution"]);

function macroRequest({ plan, modules }: PreparedMacros, context: MacroContext): MacroRequest {
  const values: FlagValues = {};
  for (const flag of FLAGS) {
    const value = RUNNER_GROUPS.has(flag.group) ? flagValue(context.values, flag.name) : undefined;
    if (value !== undefined) setFlagValue(values, flag.name, value);
  }
  const calls = plan.calls.map((call) => ({ module: modules[call.module]!, exportName: call.exportName, args: call.args }));
  return { cwd: process.cwd(), cacheRoot: context.cacheRoot, values, calls };
}

function parseResponse(answer: string, status: number | null, error?: Error): MacroResponse {
  try {
    return JSON.parse(answer) as MacroResponse;
  } catch {
    throw new ProgramError(`the macro runner failed (${error ? error.message : `exit code ${status}`}); its messages are above`, "ERR_MACRO_RUNNER");
  }
}

function applyResults({ plan }: PreparedMacros, { results }: MacroResponse): string {
  const { file, text } = plan;
  const edits: { start: number; end: number; code: string }[] = plan.imports.map(({ start, end }) => ({ start, end, code: "" }));
  plan.calls.forEach((call, i) => {
    const result = results[i]!;
    if ("failed" in result) throw new ProgramError(result.failed.split("\n")[0]!, "ERR_MACRO", result.failed);
    if ("error" in result) throw errorAt(file, text, call.start, result.error, "ERR_MACRO");
    // In parentheses: an object result at the start of a statement is not a block.
    edits.push({ start: call.start, end: call.end, code: result.code.startsWith("{") ? `(${result.code})` : result.code });
  });
  edits.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const edit of edits) {
    out += text.slice(at, edit.start) + edit.code + "\n".repeat(countNewlines(text.slice(edit.start, edit.end)));
    at = edit.end;
  }
  return out + text.slice(at);
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function inNodeModules(file: string): boolean {
  return file.split(path.sep).includes("node_modules");
}

/** The `name` of the package.json nearest to `file`. */
function packageNameOf(file: string): string | undefined {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = readPackageJson(path.join(dir, "package.json"));
    if (manifest) return typeof manifest.name === "string" ? manifest.name : undefined;
    if (path.dirname(dir) === dir) return undefined;
  }
}
