// --hot: reloads changed modules inside the running process. Every import is recorded (who
// imports what); when files change, the changed files and every module that imports them,
// directly or through others, up to the entry, are executed again as new module instances;
// all other modules keep their instances and state, and so does globalThis. ES modules get a
// new instance through a versioned URL (`file.ts?rt-hot=N`), CommonJS modules by leaving
// require.cache. A reload that throws (a syntax error, an error at the top level) prints the
// error; the previous version keeps running, and the next change retries the failed modules.
// Servers keep their port: see servers.ts.
import { Module } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ProgramError } from "../errors.js";
import { inspect } from "../diagnostics/preview.js";
import { wantsColors } from "../diagnostics/uncaught.js";
import type { ModuleLoader, ModuleTracker } from "../loader/hooks.js";
import { importUrl } from "../loader/import-url.js";
import { FileWatcher, clearScreen, isPackageFile } from "./files.js";
import { keepServerPorts } from "./servers.js";

const VERSION_PARAMETER = "rt-hot";
const VERSION_SUFFIX = new RegExp(`\\?${VERSION_PARAMETER}=\\d+`, "g");

interface ModuleInternals {
  _load(request: string, parent: null, isMain: boolean): unknown;
  _cache: Record<string, unknown>;
}

export class HotReloader implements ModuleTracker {
  /** file → the files that import it. */
  private readonly importers = new Map<string, Set<string>>();
  /** file → the reload that last made it stale (its ES module instance's version). */
  private readonly versions = new Map<string, number>();
  private readonly watcher = new FileWatcher((files) => this.schedule(files));
  private generation = 0;
  /** Modules of a failed reload: they run again with the next change, whichever file it is. */
  private failed = new Set<string>();
  private reloads = Promise.resolve();
  private loader: ModuleLoader | undefined;
  private entry = "";

  constructor(private readonly noClearScreen: boolean) {
    keepServerPorts(() => this.generation);
  }

  loaded(file: string): void {
    this.watcher.add(file);
  }

  resolved(url: string, parentURL: string | undefined, forRequire: boolean): string {
    const file = fileURLToPath(url);
    if (isPackageFile(file)) return url;
    if (parentURL?.startsWith("file:")) {
      const importers = this.importers.get(file) ?? new Set();
      importers.add(fileURLToPath(parentURL));
      this.importers.set(file, importers);
    }
    const version = this.versions.get(file);
    if (version === undefined || forRequire || url.includes("?")) return url;
    return `${url}?${VERSION_PARAMETER}=${version}`;
  }

  /** Runs the entry (after `first`, the preloads and the first run); a failure is printed and watching goes on. */
  start(loader: ModuleLoader, entry: string, first: () => Promise<void>): Promise<void> {
    this.loader = loader;
    this.entry = entry;
    return first().catch((error: unknown) => {
      this.failed = new Set([entry]);
      report(error);
    });
  }

  private schedule(files: readonly string[]): void {
    this.reloads = this.reloads.then(() => this.reload(files));
  }

  private async reload(files: readonly string[]): Promise<void> {
    const stale = this.importersOf([...files, ...this.failed]);
    // A changed file no module of the entry's graph imports (a preload): nothing to run again.
    if (!stale.has(this.entry)) return;
    const generation = ++this.generation;
    const cache = (Module as unknown as ModuleInternals)._cache;
    const previous = new Map<string, unknown>();
    for (const file of stale) {
      this.versions.set(file, generation);
      if (cache[file]) previous.set(file, cache[file]);
      delete cache[file];
    }
    clearScreen(this.noClearScreen);
    try {
      await this.runEntry(generation);
      this.failed = new Set();
    } catch (error) {
      // Modules the old version requires later (lazily) still get their old instances.
      for (const [file, module] of previous) cache[file] ??= module;
      this.failed = stale;
      report(error);
    }
  }

  private runEntry(generation: number): Promise<unknown> {
    const loader = this.loader!;
    if (loader.formatOf(this.entry) === "commonjs") {
      (Module as unknown as ModuleInternals)._load(this.entry, null, true);
      return Promise.resolve();
    }
    return importUrl(`${pathToFileURL(this.entry).href}?${VERSION_PARAMETER}=${generation}`);
  }

  /** The files and, transitively, every module that imports them. */
  private importersOf(files: readonly string[]): Set<string> {
    const stale = new Set<string>();
    const visit = (file: string): void => {
      if (stale.has(file)) return;
      stale.add(file);
      for (const importer of this.importers.get(file) ?? []) visit(importer);
    };
    for (const file of files) visit(file);
    return stale;
  }
}

function report(error: unknown): void {
  const text = error instanceof ProgramError ? error.display : `${inspect(error, { colors: wantsColors(process.stderr) })}\n`;
  // Module versions are rt's bookkeeping, not part of the user's file names.
  process.stderr.write(`${text.replace(VERSION_SUFFIX, "")}rt --hot: the reload failed; the previous version keeps running until the next change\n`);
}
