// The in-thread module hooks (module.registerHooks) that make `import` and `require` of
// TypeScript, JSX and asset files work: resolution as resolve-specifier.ts decides it, loading
// through the transpiler (and its cache), the module-format policy and the CommonJS interop.
import { readFileSync } from "node:fs";
import { createRequire, registerHooks, type LoadFnOutput, type LoadHookContext, type ResolveHookContext } from "node:module";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { TranspileCache, ModuleFormat } from "../transpile/cache.js";
import type { TranspileSettings } from "../transpile/options.js";
import { transpile, type TranspileRequest } from "../transpile/transpile.js";
import type { ScriptLoader } from "../flags/table.js";
import { checkMacros, expandMacrosSync, type MacroContext } from "../macros/expand.js";
import { mayImportMacros, scanMacros } from "../macros/scan.js";
import { registerTranspiled } from "../diagnostics/source-maps.js";
import { assetModule, checkedJson, type AssetLoader } from "./assets.js";
import { CommonJsInterop, type Asked } from "./commonjs-interop.js";
import { askedOf } from "./import-clauses.js";
import { withCommonJsScope } from "./commonjs-scope.js";
import { COMPILED_LOADERS, ModuleFormats, silenceTypelessPackageWarning } from "./format.js";
import { type FileResolver, isWorkerThreadsSpecifier } from "./resolve.js";
import {
  afterNodeFailed,
  resolutionError,
  resolveMacroModule,
  resolveRequest,
  resolveSpecifier,
  type Resolution,
  type ResolveRequest,
  type ResolveScope,
} from "./resolve-specifier.js";
import type { AutoInstaller } from "../install/auto-install.js";

export interface LoaderSettings {
  /** The settings of the default tsconfig: loaders, defines, inline code. */
  readonly transpile: TranspileSettings;
  /** The settings a file compiles with: those of the tsconfig nearest to it. */
  readonly transpileFor?: (file: string) => TranspileSettings;
  readonly cache: TranspileCache | undefined;
  readonly resolver: FileResolver;
  readonly conditions: readonly string[];
  /** The file that backs the "rt" module. */
  readonly apiFile: string;
  /** False under --no-addons: the "node-addons" export condition is off. */
  readonly addons: boolean;
  readonly tracker?: ModuleTracker;
  /** How macro imports run (or are refused), as in `rt build`. */
  readonly macros: MacroContext;
  /** Bare imports from the auto-install cache; undefined under --no-install. */
  readonly installer?: AutoInstaller;
  /** Called once, before the program first imports node:worker_threads (rt's Worker goes in then). */
  readonly beforeWorkerThreads?: () => void;
}

/** Told of each module file as it loads and of each import: --watch reports files, --hot versions modules. */
export interface ModuleTracker {
  loaded(file: string): void;
  /** The URL to load for `url`, which `parentURL` imports (`forRequire`: through require()). */
  resolved(url: string, parentURL: string | undefined, forRequire: boolean): string;
}

type NextResolve = (specifier: string, context?: Partial<ResolveHookContext>) => { url: string; format?: string | null };

const SCRIPT_LOADERS = new Set(["js", ...COMPILED_LOADERS]);
const NATIVE_JS = new Set([".js", ".mjs", ".cjs"]);

export class ModuleLoader {
  /** Sources that live in memory: stdin and --eval, addressed by a virtual path. */
  private readonly virtual = new Map<string, string>();
  /** Per-file defines: the entry sees `import.meta.main` as true. */
  private readonly defines = new Map<string, Record<string, string>>();
  /** The entry, already resolved by the CLI (or kept by --preserve-symlinks-main): its path and URL → URL. */
  private readonly entrySpecifiers = new Map<string, string>();
  /** The entry is transpiled once to learn its format; the load hook then takes the result. */
  private readonly pending = new Map<string, { format: ModuleFormat; code: string }>();
  private transpiling = false;
  private readonly interop: CommonJsInterop;
  /**
   * The JavaScript of each ES module loaded, by URL, what its imports of CommonJS ask is read
   * from: the string given to Node (no copy), or null for bytes Node read from the file (read
   * again if ever needed, rather than kept).
   */
  private readonly moduleSources = new Map<string, string | null>();
  /**
   * The URLs of the CommonJS JavaScript Node loads as it is (a .cjs entry, a package's CommonJS):
   * code written against Node, whose import() calls see Node's namespaces.
   */
  private readonly plainCommonJsUrls = new Set<string>();
  /** CommonJS modules first imported by plain CommonJS (`import()` in a .cjs file): Node's namespace, not bun's facade. */
  private readonly nodeNamespaces = new Set<string>();
  /** The importers (URL, specifier) of each file URL imported from an ES module, until it loads. */
  private readonly importers = new Map<string, { parentURL: string; specifier: string }[]>();
  private beforeWorkerThreads: (() => void) | undefined;
  private readonly scope: ResolveScope;
  private readonly formats = new ModuleFormats(this.virtual);

  constructor(private readonly settings: LoaderSettings) {
    this.interop = new CommonJsInterop(settings.cache);
    this.beforeWorkerThreads = settings.beforeWorkerThreads;
    this.scope = { ...settings, entries: this.entrySpecifiers, virtual: this.virtual };
  }

  /** True while rt transpiles: code running then (esbuild's) is rt's own, not the program's. */
  get isTranspiling(): boolean {
    return this.transpiling;
  }

  install(): void {
    silenceTypelessPackageWarning();
    registerHooks({
      resolve: (specifier, context, nextResolve) => this.resolve(specifier, context, nextResolve),
      load: (url, context, nextLoad) => this.load(url, context, nextLoad),
    });
    this.registerRequireExtensions();
  }

  /**
   * `require.extensions` lists the extensions rt compiles, as under tsx and bun: tools ask it
   * whether a TypeScript loader is active (rechoir/interpret, behind webpack-cli, gulp-cli and
   * knex, for `*.config.ts`; tsconfig-paths, for the files it probes). Each takes `.js`'s
   * handler, which is what Node runs for an extension it does not know: it loads through these
   * hooks, which give the format and the compiled source.
   */
  private registerRequireExtensions(): void {
    const handlers = require.extensions;
    for (const [ext, loader] of Object.entries(this.settings.transpile.loaders)) {
      if (COMPILED_LOADERS.has(loader)) handlers[ext] ??= handlers[".js"];
    }
  }

  addVirtualModule(file: string, source: string): void {
    this.virtual.set(file, source);
  }

  markEntry(file: string): void {
    this.defines.set(file, { "import.meta.main": "true" });
    const url = pathToFileURL(file).href;
    this.entrySpecifiers.set(file, url).set(url, url);
  }

  /** How `file` will load: ES module or CommonJS (transpiling it, through the cache, if needed). */
  formatOf(file: string): ModuleFormat | undefined {
    const loader = this.loaderFor(file);
    if (!loader || !SCRIPT_LOADERS.has(loader)) return undefined;
    if (this.loadsNatively(file, loader)) return undefined;
    const result = this.transpileFile(file, loader as ScriptLoader);
    this.pending.set(file, result);
    return result.format;
  }

  /** The JavaScript a TypeScript/JSX file (or virtual module) compiles to, for running it as a script. */
  transpiledSource(file: string): string {
    const { code } = this.transpileFile(file, this.loaderFor(file) as ScriptLoader);
    registerTranspiled(file, code);
    return code;
  }

  private resolve(specifier: string, given: ResolveHookContext, nextResolve: NextResolve) {
    const context = withConditionList(given);
    if (this.beforeWorkerThreads && isWorkerThreadsSpecifier(specifier)) {
      const before = this.beforeWorkerThreads;
      this.beforeWorkerThreads = undefined;
      before();
    }
    const request = resolveRequest(specifier, context);
    const resolution = resolveSpecifier(request, this.scope);
    if (resolution.kind === "rt") return { url: resolution.url, format: "commonjs", shortCircuit: true };
    const resolved = this.follow(resolution, request, context, nextResolve);
    if (!resolved.url.startsWith("file:")) return resolved;
    const forRequire = request.forRequire;
    const tracker = this.settings.tracker;
    const url = tracker ? tracker.resolved(resolved.url, context.parentURL, forRequire) : resolved.url;
    const parentURL = context.parentURL;
    if (forRequire || !parentURL?.startsWith("file:")) return url === resolved.url ? resolved : { ...resolved, url };
    // bun's interop is for ES modules and the TypeScript rt compiles; Node's CommonJS keeps Node's.
    if (this.plainCommonJsUrls.has(parentURL)) {
      if (!this.interop.hasFacade(url)) this.nodeNamespaces.add(url);
      return url === resolved.url ? resolved : { ...resolved, url };
    }
    return { ...resolved, url: this.noteImport(url, parentURL, specifier) };
  }

  /** Carries out a resolution (resolve-specifier.ts): through Node's resolver or the auto-install cache where it says. */
  private follow(resolution: Exclude<Resolution, { kind: "rt" }>, request: ResolveRequest, context: ResolveHookContext, nextResolve: NextResolve) {
    if (resolution.kind === "url") return { url: resolution.url, shortCircuit: true };
    if (resolution.kind === "failure") throw resolution.error;
    try {
      if (resolution.kind === "cache") return this.fromCache(request, context, resolution.conditions, nextResolve);
      try {
        // Resolve hooks registered before rt's (--import, module.register) run inside nextResolve:
        // they get their turn before anything is installed.
        return nextResolve(request.specifier, { ...context, conditions: resolution.conditions });
      } catch (error) {
        const next = afterNodeFailed(error, request, resolution, this.scope);
        if (next?.kind === "url") return { url: next.url, shortCircuit: true };
        if (next?.kind === "cache") return this.fromCache(request, context, next.conditions, nextResolve);
        throw error;
      }
    } catch (error) {
      throw resolutionError(error, request);
    }
  }

  private fromCache(request: ResolveRequest, context: ResolveHookContext, conditions: string[], nextResolve: NextResolve) {
    const installer = this.settings.installer!;
    const located = installer.locate(request.specifier, request.parentPath);
    // require() resolves from the parent module, not from a parentURL given to nextResolve:
    // a require function made inside the cache entry resolves there (through these hooks,
    // which leave its node_modules lookup to Node).
    if (!request.forRequire) return nextResolve(located.specifier, { ...context, conditions, parentURL: located.parentURL });
    return { url: pathToFileURL(installer.withoutInstalling(() => createRequire(located.parentURL).resolve(located.specifier))).href, shortCircuit: true };
  }

  /**
   * Remembers that `parentURL` imports `url` by `specifier`, for the CommonJS facade that may
   * load there. The URL to load: a CommonJS module whose deferred facade lacks a name this
   * importer asks for is imported at a second URL, whose facade has every key (bun's way).
   */
  private noteImport(url: string, parentURL: string, specifier: string): string {
    if (!this.interop.serves(url, () => this.askedBy(parentURL, specifier))) return url + (url.includes("?") ? "&" : "?") + ALL_KEYS;
    // Only a module yet to load needs its importers (an ES module once loaded has its source kept).
    if (this.moduleSources.has(url) || this.interop.hasFacade(url)) return url;
    const importers = this.importers.get(url);
    if (importers) importers.push({ parentURL, specifier });
    else this.importers.set(url, [{ parentURL, specifier }]);
    return url;
  }

  private askedBy(parentURL: string, specifier: string): Asked {
    const source = this.moduleSources.get(parentURL);
    if (source === undefined) return "all";
    return askedOf(source ?? readFileSync(fileURLToPath(parentURL), "utf8"), specifier);
  }

  /** What the importers of `url` so far ask of it. */
  private askedOf(url: string): Asked {
    const importers = this.importers.get(url);
    this.importers.delete(url);
    if (!importers || url.endsWith(ALL_KEYS)) return "all";
    const names = new Set<string>();
    for (const { parentURL, specifier } of importers) {
      const asked = this.askedBy(parentURL, specifier);
      if (asked === "all") return "all";
      for (const name of asked) names.add(name);
    }
    return names;
  }

  private load(url: string, context: LoadHookContext, nextLoad: (url: string, context?: Partial<LoadHookContext>) => LoadFnOutput): LoadFnOutput {
    // Modules rt itself loads while transpiling (esbuild's package) are never transformed.
    if (!url.startsWith("file:") || this.transpiling) return nextLoad(url, context);
    const loaded = this.loadFile(url, context, nextLoad);
    if (loaded.format === "module" && loaded.source != null) this.moduleSources.set(url, typeof loaded.source === "string" ? loaded.source : null);
    this.importers.delete(url);
    return loaded;
  }

  private loadFile(url: string, context: LoadHookContext, nextLoad: (url: string, context?: Partial<LoadHookContext>) => LoadFnOutput): LoadFnOutput {
    const file = fileURLToPath(url);
    this.settings.tracker?.loaded(file);
    const forRequire = context.conditions ? withConditionList(context).conditions.includes("require") : false;
    const loader = this.loaderFor(file);
    if (!loader) return this.withInterop(file, url, forRequire, nextLoad(url, context));
    if (SCRIPT_LOADERS.has(loader)) {
      if (this.loadsNatively(file, loader)) return this.withInterop(file, url, forRequire, this.formats.plainJavaScript(file, nextLoad(url, context)));
      const transpiled = this.transpileFile(file, loader as ScriptLoader);
      const loaded = (): LoadFnOutput => {
        registerTranspiled(file, transpiled.code);
        return { format: transpiled.format, source: transpiled.code, shortCircuit: true };
      };
      if (transpiled.format !== "commonjs" || forRequire || this.nodeNamespaces.has(url)) return loaded();
      // The facade's require() loads the same file: it takes this result instead of transpiling again.
      this.pending.set(file, transpiled);
      return this.facadeFor(file, url, transpiled.code) ?? loaded();
    }
    // Node's own JSON format keeps `with { type: "json" }` and require() exactly as in Node;
    // the text is checked first so a syntax error is reported like any other.
    if (loader === "json" && (forRequire || context.importAttributes?.type === "json")) {
      return { format: "json", source: checkedJson(file), shortCircuit: true };
    }
    const asset = assetModule(file, loader as AssetLoader, forRequire);
    return { format: asset.format, source: asset.source, shortCircuit: true };
  }

  /** CommonJS imported from an ES module (not through require()) is seen through bun's interop. */
  private withInterop(file: string, url: string, forRequire: boolean, loaded: LoadFnOutput): LoadFnOutput {
    if (loaded.format === "commonjs") this.plainCommonJsUrls.add(url);
    if (loaded.format !== "commonjs" || forRequire || file === this.settings.apiFile || this.nodeNamespaces.has(url)) return loaded;
    return this.facadeFor(file, url, undefined) ?? loaded;
  }

  /** undefined when the module cannot run yet: it then loads Node's way (commonjs-interop.ts). */
  private facadeFor(file: string, url: string, code: string | undefined): LoadFnOutput | undefined {
    const source = this.interop.facade(file, url, code, this.askedOf(url));
    return source === undefined ? undefined : { format: "module", source, shortCircuit: true };
  }

  /** Plain JavaScript Node can load itself, when no --define/--drop applies to it: no transpiling. */
  private loadsNatively(file: string, loader: string): boolean {
    return loader === "js" && NATIVE_JS.has(path.extname(file)) && !this.settings.transpile.transformsJavaScript && !this.virtual.has(file);
  }

  private loaderFor(file: string) {
    if (this.virtual.has(file)) return "tsx";
    const ext = path.extname(file);
    return ext ? this.settings.transpile.loaders[ext] : undefined;
  }

  private transpileFile(file: string, loader: ScriptLoader): { format: ModuleFormat; code: string } {
    const pending = this.pending.get(file);
    if (pending) {
      this.pending.delete(file);
      return pending;
    }
    const inline = this.virtual.get(file);
    const source = inline === undefined ? readFileSync(file) : Buffer.from(inline);
    this.transpiling = true;
    let result: ReturnType<typeof transpile>;
    try {
      const macros = this.macroStep(file, source, loader);
      result = transpile(
        { file, source, loader, define: this.defines.get(file), macros, preferCommonJs: this.formats.prefersCommonJs(file, loader) },
        this.settings.transpileFor?.(file) ?? this.settings.transpile,
        this.settings.cache,
      );
    } finally {
      this.transpiling = false;
    }
    const format = this.formats.formatFor(file, () => result.format);
    return { format, code: format === "module" ? withCommonJsScope(result.code, file) : result.code };
  }

  /** The macro calls of a file that imports macros (a cheap text check first: most files don't). */
  private macroStep(file: string, source: Buffer, loader: ScriptLoader): TranspileRequest["macros"] {
    if (!mayImportMacros(source)) return undefined;
    const plan = scanMacros(file, source.toString("utf8"), loader === "tsx" || loader === "jsx");
    if (!plan) return undefined;
    const context = this.settings.macros;
    const prepared = checkMacros(
      plan,
      context,
      plan.imports.map((entry) => resolveMacroModule(entry.specifier, file, this.settings.resolver)),
    );
    return { expand: () => expandMacrosSync(prepared, context) };
  }
}

/** The query of a CommonJS module's second URL, whose facade has every key (noteImport). */
const ALL_KEYS = "rt-commonjs-all-keys";

/** Node 22.15.0 gives require()'s hooks the conditions as a Set (later versions: an array, as typed). */
function withConditionList<T extends { readonly conditions?: readonly string[] }>(context: T): T {
  return context.conditions === undefined || Array.isArray(context.conditions) ? context : { ...context, conditions: [...context.conditions] };
}
