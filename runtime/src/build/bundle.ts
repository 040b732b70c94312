// `rt build`: one esbuild build (or a watching context) with rt's plugins. esbuild prints its
// own positioned messages and the list of output files; a failed build exits 1.
import type { BuildFailure } from "esbuild";
import type { FlagValues } from "../flags/parse.js";
import { ProgramError } from "../errors.js";
import { loadTsconfig } from "../transpile/tsconfig.js";
import { buildDirectly } from "./direct.js";
import { bundlePlan } from "./options.js";
import { macroPlugin, tomlPlugin } from "./plugins.js";

export async function bundle(entries: readonly string[], values: FlagValues, cacheRoot: string | undefined): Promise<void> {
  const tsconfig = loadTsconfig(process.cwd(), values["tsconfig-override"]);
  const plan = bundlePlan(entries, values, tsconfig);
  const plugins = [macroPlugin(plan.transpile, { allowed: plan.transpile.macros, values, cacheRoot })];
  if (plan.tomlExtensions.length > 0) plugins.push(tomlPlugin(plan.tomlExtensions));
  // Whether rt's plugins are needed, esbuild itself tells (see direct.ts).
  if (values.watch !== true) {
    const direct = buildDirectly(plan.esbuild, plan.tomlExtensions);
    if (direct.done) {
      if (!direct.ok) throw new ProgramError("build failed", "ERR_BUILD", "");
      return;
    }
  }
  const options = { ...plan.esbuild, plugins };
  // Loaded only by rt build: running a program never needs the bundler.
  const esbuild = require("esbuild") as typeof import("esbuild");
  if (values.watch === true) {
    // Rebuilds on every change of a file the bundle (or a macro) read; failures are printed and watching goes on.
    const context = await esbuild.context(options);
    await context.watch();
    return;
  }
  try {
    await oneShot(() => esbuild.build(options));
  } catch (error) {
    const failure = error as Partial<BuildFailure>;
    if (!Array.isArray(failure.errors)) throw error;
    // esbuild has printed each error with its file, line and column, and the count.
    throw new ProgramError(`build failed with ${failure.errors.length} errors`, "ERR_BUILD", "");
  }
}

/**
 * Starts esbuild's service for one build with Go's garbage collector off, as esbuild's own CLI
 * runs a one-shot build (measured here: ~15% off a 5,000-line bundle). The service process is
 * spawned synchronously by the first call, so the setting reaches it and nothing else.
 */
function oneShot<T>(start: () => T): T {
  if (process.env.GOGC !== undefined) return start();
  process.env.GOGC = "off";
  try {
    return start();
  } finally {
    delete process.env.GOGC;
  }
}
