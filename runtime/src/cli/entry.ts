// Runs an entry module in the format the loader decided, as Node would run a main module.
import { Module } from "node:module";
import { pathToFileURL } from "node:url";
import type { ModuleLoader } from "../loader/hooks.js";

interface ModuleInternals {
  _load(request: string, parent: null, isMain: boolean): unknown;
  runMain(main: string): void;
}

// Returns the import promise rather than awaiting it, so rt's frames stay out of async stack traces.
export function runEntry(loader: ModuleLoader, file: string): Promise<void> {
  const format = loader.formatOf(file);
  const internals = Module as unknown as ModuleInternals;
  if (format === "module") return import(pathToFileURL(file).href).then(() => undefined);
  // isMain: require.main === module, as under `node file.js`.
  if (format === "commonjs") internals._load(file, null, true);
  // Plain JavaScript that needs no transform: Node's own main-module logic.
  else internals.runMain(file);
  return Promise.resolve();
}
