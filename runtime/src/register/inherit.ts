// rt in every thread and process the program starts. module.registerHooks works per thread and
// per process, so each new one registers rt's loader itself, through the register module
// (dist/register.cjs, `rt-runtime/register`), preloaded by a `--require` that rt adds to NODE_OPTIONS:
//
//   NODE_OPTIONS=--require=<register>    Node child processes (fork, cluster.fork, spawn and
//                                        execFile of process.execPath, `node x.ts` in a shell)
//                                        preload it; so do the worker threads started through
//                                        rt's Worker, which hands Node the environment to read
//                                        it from (a worker started with Node's defaults inherits
//                                        the parent's start-up options and ignores a changed one)
//   RT_LOADER_OPTIONS=<JSON>             {"flags": {...}, "cacheRoot": ...}: the settings the
//                                        program was started with (transpilation, resolution,
//                                        in-process runtime flags), so a child transpiles and
//                                        resolves as its parent does
//   RT_THREAD=1                          set in the environment of a worker that rt's Worker
//                                        starts: a worker registers the loader only then (threads
//                                        that libraries start for themselves with an explicit
//                                        execArgv, esbuild's service among them, read
//                                        NODE_OPTIONS too, and are left alone)
import { syncBuiltinESMExports } from "node:module";
import * as path from "node:path";
import type { WorkerOptions } from "node:worker_threads";
import { flagByName, type FlagGroup } from "../flags/table.js";
import { setFlagValue, type FlagValues } from "../flags/parse.js";
import { REPORT_FD_VARIABLE, watchReportFd } from "../watch/report.js";
import { LOADER_VARIABLE, NODE_OPTIONS, THREAD_VARIABLE } from "./variables.js";

export interface InheritedSettings {
  readonly flags: FlagValues;
  readonly cacheRoot?: string;
}

/** The groups of flags that say how code loads and runs, as opposed to what one invocation does. */
const INHERITED_GROUPS: ReadonlySet<FlagGroup> = new Set(["runtime", "resolution", "transpilation"]);
/** Preloads are the program's own start-up (Node passes --import/--require down; Bun does not). */
const NOT_INHERITED = new Set(["preload"]);

/**
 * The Node option that preloads the register module. --require, not --import: Node runs --import
 * modules in no eval worker (`new Worker(code, { eval: true })`), and a main module that is an ES
 * module (top-level await included) still runs as one after a --require.
 */
export function registerOption(): string {
  // __dirname: the bundle's directory (dist/), where register.cjs lives too. NODE_OPTIONS splits
  // at spaces unless a value is double-quoted (with backslash escapes, as JSON writes them).
  const file = path.join(__dirname, "register.cjs");
  return `--require=${/[\s"\\]/.test(file) ? JSON.stringify(file) : file}`;
}

/** The settings a child thread or process takes over, from this process's flag values. */
export function inheritedSettings(values: FlagValues, cacheRoot: string | undefined): InheritedSettings {
  const flags: FlagValues = {};
  for (const [name, value] of Object.entries(values)) {
    const flag = flagByName(name);
    if (value === undefined || !flag || flag.config === false || NOT_INHERITED.has(name) || !INHERITED_GROUPS.has(flag.group)) continue;
    // A child may run in another directory: the file means the one this process found.
    setFlagValue(flags, name, name === "tsconfig-override" && typeof value === "string" ? path.resolve(value) : value);
  }
  return cacheRoot === undefined ? { flags } : { flags, cacheRoot };
}

/** The settings a parent passed down, or none (`node --import rt-runtime/register` run by hand). */
export function readInheritedSettings(env: NodeJS.ProcessEnv): InheritedSettings {
  const raw = env[LOADER_VARIABLE];
  if (!raw) return { flags: {} };
  try {
    const parsed = JSON.parse(raw) as Partial<InheritedSettings>;
    return { flags: parsed.flags ?? {}, cacheRoot: parsed.cacheRoot };
  } catch {
    return { flags: {} };
  }
}

/** NODE_OPTIONS with the register module's --require added (once). */
export function withRegisterOption(nodeOptions: string | undefined): string {
  const option = registerOption();
  if (!nodeOptions) return option;
  return nodeOptions.includes(option) ? nodeOptions : `${option} ${nodeOptions}`;
}

/**
 * Makes the processes this program starts run on rt with its settings: written into this
 * process's environment, which children inherit (a few microseconds: nothing is loaded).
 */
export function passToChildProcesses(settings: InheritedSettings): void {
  process.env[LOADER_VARIABLE] = JSON.stringify(settings);
  process.env[NODE_OPTIONS] = withRegisterOption(process.env[NODE_OPTIONS]);
}

/**
 * Replaces node:worker_threads' Worker with one whose threads register rt's loader (loading
 * worker_threads costs ~5 ms, so this runs when the program first imports it, not at start).
 * `rtIsStarting`: true while rt itself starts a thread (esbuild's service while it transpiles).
 */
export function patchWorkerThreads(rtIsStarting: () => boolean): void {
  const workerThreads = require("node:worker_threads") as typeof import("node:worker_threads");
  const NodeWorker = workerThreads.Worker;
  if ((NodeWorker as { [RT_WORKER]?: true })[RT_WORKER]) return;
  const { SHARE_ENV } = workerThreads;
  // Named Worker: it shows as Node's class does (in stacks, util.inspect and `constructor.name`).
  const Worker = class Worker extends NodeWorker {
    static readonly [RT_WORKER] = true;
    constructor(filename: string | URL, options?: WorkerOptions) {
      super(filename, rtIsStarting() ? options : withRegister(options, SHARE_ENV));
    }
  };
  workerThreads.Worker = Worker;
  // `import { Worker } from "node:worker_threads"` reads the ES module facade's copy.
  syncBuiltinESMExports();
}

const RT_WORKER = Symbol("rt.Worker");

/**
 * The options of a worker that registers rt's loader. A worker reads NODE_OPTIONS from an
 * environment it is given (or, with an execArgv, from the process's) and otherwise inherits the
 * parent thread's start-up options: giving it the environment keeps those and adds the --require.
 */
function withRegister(options: WorkerOptions | undefined, shareEnv: symbol): WorkerOptions {
  const env = options?.env;
  if (env === shareEnv) {
    // One environment for both threads: the marker cannot be the worker's alone, and with
    // start-up options only an explicit execArgv makes Node read NODE_OPTIONS. Left to Node.
    return options!;
  }
  const base = (env ?? process.env) as NodeJS.ProcessEnv;
  const workerEnv: NodeJS.ProcessEnv = { ...base, [NODE_OPTIONS]: withRegisterOption(base[NODE_OPTIONS]), [THREAD_VARIABLE]: "1" };
  // An environment of the program's own making still gets this program's settings.
  workerEnv[LOADER_VARIABLE] ??= process.env[LOADER_VARIABLE];
  if (workerEnv[LOADER_VARIABLE] === undefined) delete workerEnv[LOADER_VARIABLE];
  // Under --watch the worker reports the files it loads on the process's pipe (a thread shares
  // the process's descriptors): editing a worker's file restarts the program.
  const reportFd = watchReportFd();
  if (reportFd !== undefined) workerEnv[REPORT_FD_VARIABLE] = String(reportFd);
  return { ...options, env: workerEnv };
}
