// Runs an entry module (after the --preload modules) in the format the loader decided, as Node
// would run a main module.
import { Module, createRequire } from "node:module";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ProgramError } from "../errors.js";
import type { ModuleLoader } from "../loader/hooks.js";
import { importUrl } from "../loader/import-url.js";

interface ModuleInternals {
  _load(request: string, parent: null, isMain: boolean): unknown;
  runMain(main: string): void;
}

// Returns the import promise rather than awaiting it, so rt's frames stay out of async stack traces.
export function runEntry(loader: ModuleLoader, file: string): Promise<void> {
  return loadModule(loader, file, true);
}

/**
 * Loads `file` as a module: an ES module through import(), CommonJS through Node's CommonJS
 * loader (as the main module when `isMain`: require.main === module, as under `node file.js`).
 */
export function loadModule(loader: ModuleLoader, file: string, isMain: boolean): Promise<void> {
  const format = loader.formatOf(file);
  const internals = Module as unknown as ModuleInternals;
  if (format === "commonjs") internals._load(file, null, isMain);
  // Plain JavaScript that needs no transform: Node's own main-module logic.
  else if (format === undefined && isMain) internals.runMain(file);
  else return importUrl(pathToFileURL(file).href).then(() => undefined);
  return Promise.resolve();
}

/**
 * --preload/--require/--import: each module runs completely (top-level await included) before
 * the next, and all of them before `run`. Specifiers resolve from the working directory like an
 * import there (rt's extensions, tsconfig paths, packages).
 */
export function afterPreloads<T>(loader: ModuleLoader, preloads: readonly string[] | undefined, run: () => T | Promise<T>): Promise<T> {
  if (!preloads?.length) return Promise.resolve(run());
  const from = createRequire(path.join(process.cwd(), "[preload]"));
  let chain = Promise.resolve();
  for (const specifier of preloads) chain = chain.then(() => loadModule(loader, resolvePreload(from, specifier), false));
  return chain.then(run);
}

function resolvePreload(from: NodeJS.Require, specifier: string): string {
  try {
    return from.resolve(specifier);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") throw new ProgramError(`preload not found "${specifier}"`, "ERR_MODULE_NOT_FOUND");
    throw error;
  }
}
