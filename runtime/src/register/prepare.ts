// Everything a program needs before its first module loads: source maps, the module hooks
// (with tsconfig, transpile settings and cache) and the `rt` namespace.
import * as path from "node:path";
import { installNamespace } from "../api/namespace.js";
import { installStackTraces } from "../diagnostics/stack.js";
import { installUncaughtReport } from "../diagnostics/uncaught.js";
import { installVerboseFetch } from "../diagnostics/verbose-fetch.js";
import { parseInspectorAddress } from "../inspector/address.js";
import { inspectorMode, startInspector } from "../inspector/start.js";
import { ModuleLoader } from "../loader/hooks.js";
import { FileResolver } from "../loader/resolve.js";
import { AutoInstaller } from "../install/auto-install.js";
import { TranspileCache } from "../transpile/cache.js";
import { resolutionSettings, settingsByTsconfig, transpileSettings } from "../transpile/options.js";
import { loadTsconfig, TsconfigLocator } from "../transpile/tsconfig.js";
import { applyRuntimeFlags } from "../process/runtime-flags.js";
import { applyNetworkFlags } from "../net/flags.js";
import { preconnectStores } from "../stores/load.js";
import { HotReloader } from "../watch/hot.js";
import { inheritedSettings, passToChildProcesses, patchWorkerThreads } from "./inherit.js";
import { reportWatched, watchReporter } from "../watch/report.js";
import type { FlagValues } from "../flags/parse.js";

/** What a command runs with: the flag values, the program's arguments and rt's cache directory. */
export interface Invocation {
  readonly values: FlagValues;
  readonly args: readonly string[];
  /** `$XDG_CACHE_HOME/rt` or `~/.cache/rt`, checked by openCacheRoot; undefined without a home or when it is not the user's alone. */
  readonly cacheRoot: string | undefined;
}

export interface PreparedRuntime {
  readonly loader: ModuleLoader;
  /** The entry's path (rt.main), as `locateEntry` found it. */
  readonly entry: string;
  /** Under --hot: reloads changed modules of this run. */
  readonly hot?: HotReloader;
}

/**
 * `inWorker`: preparing a worker thread (rt-runtime/register in a worker): no inspector (the process's
 * debugger reaches workers through Node's NodeWorker domain) and no report of uncaught errors
 * (Node hands them to the parent thread's Worker as an 'error' event).
 */
export function prepareRuntime({ values, cacheRoot }: Invocation, locateEntry: (resolver: FileResolver) => string, inWorker = false): PreparedRuntime {
  const cwd = process.cwd();
  const tsconfigOverride = values["tsconfig-override"];
  reportWatched(path.resolve(tsconfigOverride ?? "tsconfig.json"));
  const tsconfigs = new TsconfigLocator(loadTsconfig(cwd, tsconfigOverride), tsconfigOverride !== undefined, reportWatched);
  const transpile = transpileSettings(values, tsconfigs.fallback, process.env.NODE_ENV);
  const resolution = resolutionSettings(values);
  const resolver = new FileResolver({ ...resolution, tsconfigs });
  const cache = TranspileCache.fromEnvironment(process.env, cacheRoot);
  const hot = values.hot === true ? new HotReloader(values["no-clear-screen"] === true) : undefined;
  const loader = new ModuleLoader({
    transpile,
    transpileFor: settingsByTsconfig(values, tsconfigs, process.env.NODE_ENV, transpile),
    cache,
    resolver,
    conditions: resolution.conditions,
    apiFile: path.join(__dirname, "api.cjs"),
    addons: values["no-addons"] !== true,
    tracker: hot ?? watchReporter(),
    macros: { allowed: transpile.macros, values, cacheRoot },
    installer: AutoInstaller.fromFlags(values, cacheRoot),
    beforeWorkerThreads: () => patchWorkerThreads(() => loader.isTranspiling),
  });
  // Stacks of transpiled files show original positions (maps decoded only when a stack is formatted).
  installStackTraces();
  if (!inWorker) installUncaughtReport();
  installVerboseFetch(process.env);
  applyRuntimeFlags(values);
  // Before the entry is located and transpiled: preconnects run while code loads.
  applyNetworkFlags(values);
  const entry = locateEntry(resolver);
  const inspector = inWorker ? undefined : inspectorMode(values);
  const debuggerHandle = inspector && startInspector(inspector.mode, parseInspectorAddress(`--${inspector.mode}`, inspector.value), entry, cache?.directory);
  loader.install();
  passToChildProcesses(inheritedSettings(values, cacheRoot));
  installNamespace(entry, { port: values.port });
  preconnectStores(values);
  if (cache) process.once("exit", () => cache.pruneIfDue());
  // Last: with --inspect-wait/--inspect-brk nothing of the program (preloads included) runs
  // before a client attaches.
  debuggerHandle?.beforeEntry();
  return { loader, entry, hot };
}
