// The in-thread module hooks (module.registerHooks) that make `import` and `require` of
// TypeScript, JSX and asset files work, plus rt's resolution rules and the "rt" module.
import { lstatSync, readFileSync } from "node:fs";
import { createRequire, isBuiltin, registerHooks, type LoadFnOutput, type LoadHookContext, type ResolveHookContext } from "node:module";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ProgramError } from "../errors.js";
import { displayPath } from "../text.js";
import type { TranspileCache, ModuleFormat } from "../transpile/cache.js";
import type { TranspileSettings } from "../transpile/options.js";
import { syntaxFormat, transpile, type TranspileRequest } from "../transpile/transpile.js";
import type { ScriptLoader } from "../flags/table.js";
import { checkMacros, expandMacrosSync, type MacroContext } from "../macros/expand.js";
import { mayImportMacros, scanMacros } from "../macros/scan.js";
import { registerTranspiled } from "../diagnostics/source-maps.js";
import { assetModule, checkedJson, type AssetLoader } from "./assets.js";
import { CommonJsInterop, type Asked } from "./commonjs-interop.js";
import { askedOf } from "./import-clauses.js";
import { withCommonJsScope } from "./commonjs-scope.js";
import { type FileResolver, isWorkerThreadsSpecifier, packageName, readPackageJson } from "./resolve.js";
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

const SCRIPT_LOADERS = new Set(["js", "jsx", "ts", "tsx"]);
const NATIVE_JS = new Set([".js", ".mjs", ".cjs"]);
/** rt's bundle: what it imports is rt's business, not the program's (no tsconfig, no auto-install). */
const RT_DIR = __dirname + path.sep;

export class ModuleLoader {
  /** Sources that live in memory: stdin and --eval, addressed by a virtual path. */
  private readonly virtual = new Map<string, string>();
  /** Per-file defines: the entry sees `import.meta.main` as true. */
  private readonly defines = new Map<string, Record<string, string>>();
  /** The entry, already resolved by the CLI (or kept by --preserve-symlinks-main): its path and URL → URL. */
  private readonly entrySpecifiers = new Map<string, string>();
  private readonly packageTypes = new Map<string, string | undefined>();
  /** Importers' directories as URLs, for resolving relative specifiers as URLs. */
  private readonly directoryURLs = new Map<string, URL>();
  /** The entry is transpiled once to learn its format; the load hook then takes the result. */
  private readonly pending = new Map<string, { format: ModuleFormat; code: string }>();
  private transpiling = false;
  private readonly interop = new CommonJsInterop();
  /**
   * The JavaScript of each ES module loaded, by URL, what its imports of CommonJS ask is read
   * from: the string given to Node (no copy), or null for bytes Node read from the file (read
   * again if ever needed, rather than kept).
   */
  private readonly moduleSources = new Map<string, string | null>();
  /** The importers (URL, specifier) of each file URL imported from an ES module, until it loads. */
  private readonly importers = new Map<string, { parentURL: string; specifier: string }[]>();
  private beforeWorkerThreads: (() => void) | undefined;

  constructor(private readonly settings: LoaderSettings) {
    this.beforeWorkerThreads = settings.beforeWorkerThreads;
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

  private resolve(specifier: string, context: ResolveHookContext, nextResolve: NextResolve) {
    if (specifier === "rt") return { url: pathToFileURL(this.settings.apiFile).href, format: "commonjs", shortCircuit: true };
    if (this.beforeWorkerThreads && isWorkerThreadsSpecifier(specifier)) {
      const before = this.beforeWorkerThreads;
      this.beforeWorkerThreads = undefined;
      before();
    }
    const resolved = this.resolveModule(specifier, context, nextResolve);
    if (!resolved.url.startsWith("file:")) return resolved;
    const forRequire = context.conditions.includes("require");
    const tracker = this.settings.tracker;
    const url = tracker ? tracker.resolved(resolved.url, context.parentURL, forRequire) : resolved.url;
    const parentURL = context.parentURL;
    if (forRequire || !parentURL?.startsWith("file:")) return url === resolved.url ? resolved : { ...resolved, url };
    return { ...resolved, url: this.noteImport(url, parentURL, specifier) };
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

  private resolveModule(specifier: string, context: ResolveHookContext, nextResolve: NextResolve) {
    // Transpiled files have had their macro imports expanded and removed; any left is in code rt
    // does not transpile (plain JavaScript, a dynamic import()), where it would run at run time.
    if (context.importAttributes?.type === "macro") throw macroNotExpanded(specifier, context.parentURL, this.settings.macros.allowed);
    const entry = this.entrySpecifiers.get(specifier);
    if (entry) return { url: entry, shortCircuit: true };
    const parentPath = context.parentURL?.startsWith("file:") ? fileURLToPath(context.parentURL) : undefined;
    const fromDir = parentPath ? path.dirname(parentPath) : process.cwd();
    const forRequire = context.conditions.includes("require");
    const resolver = this.settings.resolver;

    if (isPathSpecifier(specifier)) {
      const url = this.resolvePathSpecifier(specifier, fromDir, forRequire);
      if (url) return { url, shortCircuit: true };
      throw moduleNotFound(specifier, parentPath, forRequire);
    }
    const [bare, suffix] = splitSuffix(specifier);
    const installer = this.settings.installer;
    const strategy = installer && isPackageSpecifier(specifier) ? installer.strategy(parentPath) : "none";
    // rt's own lazily loaded modules (esbuild, jsonc-parser) resolve as in Node.
    if (!isBuiltin(specifier) && !specifier.startsWith("#") && !hasScheme(specifier) && !(fromDir + path.sep).startsWith(RT_DIR)) {
      // Packages come from the auto-install cache instead of node_modules under "cache".
      const found = strategy === "cache" ? resolver.resolveTsconfigPath(bare, fromDir) : resolver.resolveBare(bare, fromDir);
      if (found) return { url: pathToFileURL(found).href + suffix, shortCircuit: true };
    }
    const own = this.settings.addons ? context.conditions : context.conditions.filter((condition) => condition !== "node-addons");
    const conditions = this.settings.conditions.length ? [...own, ...this.settings.conditions] : own;
    const fromCache = () => {
      const located = installer!.locate(specifier, parentPath);
      // require() resolves from the parent module, not from a parentURL given to nextResolve:
      // a require function made inside the cache entry resolves there (through these hooks,
      // which leave its node_modules lookup to Node).
      if (!forRequire) return nextResolve(located.specifier, { ...context, conditions, parentURL: located.parentURL });
      return { url: pathToFileURL(installer!.withoutInstalling(() => createRequire(located.parentURL).resolve(located.specifier))).href, shortCircuit: true };
    };
    try {
      if (strategy === "cache") return fromCache();
      try {
        // Resolve hooks registered before rt's (--import, module.register) run inside nextResolve:
        // they get their turn before anything is installed.
        return nextResolve(specifier, { ...context, conditions });
      } catch (error) {
        // A package's `main`/`exports`/`imports` target naming compiled output that is not there.
        const source = isNotFound(error) ? missingTarget(error) : undefined;
        const found = source && resolver.sourceFor(source);
        if (found) return { url: pathToFileURL(found).href + suffix, shortCircuit: true };
        if (strategy === "fallback" && isNotFound(error) && installer!.isMissing(specifier, parentPath)) return fromCache();
        throw error;
      }
    } catch (error) {
      throw resolutionError(error, specifier, parentPath, forRequire);
    }
  }

  /**
   * The URL a relative, absolute or file: specifier names. Through import it is a URL first, as
   * in Node: percent-escapes name characters (`%3F` a `?` in the file name) and `?query`/`#hash`
   * stay on the URL in normal form. Through require() (and when the URL names no file, as
   * `./100%.ts` does not) it is a path: the literal name, else without its `?query`/`#hash`.
   */
  private resolvePathSpecifier(specifier: string, fromDir: string, forRequire: boolean): string | undefined {
    const find = (target: string, suffix: string) => {
      if (this.virtual.has(target)) return pathToFileURL(target).href + suffix;
      const found = this.settings.resolver.resolvePath(target);
      return found && pathToFileURL(found).href + suffix;
    };
    if (!forRequire || specifier.startsWith("file:")) {
      let base = this.directoryURLs.get(fromDir);
      if (!base) this.directoryURLs.set(fromDir, (base = pathToFileURL(fromDir + path.sep)));
      const url = new URL(specifier, base);
      const suffix = url.search + url.hash;
      url.search = "";
      url.hash = "";
      let target: string | undefined;
      try {
        target = fileURLToPath(url);
      } catch {
        // an escaped "/", a malformed escape or a host: no file by URL rules
      }
      const found = target === undefined ? undefined : find(target, suffix);
      if (found || specifier.startsWith("file:")) return found;
    }
    const literal = find(withTrailingSlash(specifier, path.resolve(fromDir, specifier)), "");
    if (literal) return literal;
    const [bare, suffix] = splitSuffix(specifier);
    return bare === specifier ? undefined : find(withTrailingSlash(bare, path.resolve(fromDir, bare)), suffix);
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
    const forRequire = context.conditions?.includes("require") ?? false;
    const loader = this.loaderFor(file);
    if (!loader) return this.withInterop(file, url, forRequire, nextLoad(url, context));
    if (SCRIPT_LOADERS.has(loader)) {
      if (this.loadsNatively(file, loader)) return this.withInterop(file, url, forRequire, this.plainJavaScript(file, nextLoad(url, context)));
      const transpiled = this.transpileFile(file, loader as ScriptLoader);
      const loaded = (): LoadFnOutput => {
        registerTranspiled(file, transpiled.code);
        return { format: transpiled.format, source: transpiled.code, shortCircuit: true };
      };
      if (transpiled.format !== "commonjs" || forRequire) return loaded();
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
    if (loaded.format !== "commonjs" || forRequire || file === this.settings.apiFile) return loaded;
    return this.facadeFor(file, url, undefined) ?? loaded;
  }

  /** undefined when the module cannot run yet: it then loads Node's way (commonjs-interop.ts). */
  private facadeFor(file: string, url: string, code: string | undefined): LoadFnOutput | undefined {
    const source = this.interop.facade(file, url, code, this.askedOf(url));
    return source === undefined ? undefined : { format: "module", source, shortCircuit: true };
  }

  /**
   * Plain JavaScript as Node loaded it, under rt's format policy where that differs from Node's:
   * a `.js` file with ESM syntax under `"type": "commonjs"` is an ES module, and an ES module of
   * the project's own that uses require(), __filename or __dirname gets them. Every other file
   * keeps Node's format, which the policy agrees with.
   */
  private plainJavaScript(file: string, loaded: LoadFnOutput): LoadFnOutput {
    if (loaded.source == null || path.extname(file) !== ".js") return loaded;
    // Node reads a file for require() as a string and for import as bytes: no copy of either.
    const source = typeof loaded.source === "string" ? loaded.source : asBuffer(loaded.source);
    if (loaded.format === "module") {
      // A published package's ES modules were written for Node, which gives them no require().
      if (file.includes(NODE_MODULES) || !COMMONJS_NAMES.some((name) => source.includes(name))) return loaded;
      return { format: "module", source: withCommonJsScope(source.toString(), file), shortCircuit: true };
    }
    // Without a type Node has judged the syntax already (the policy's rule); under
    // "type": "commonjs" it is rt's to check, after a cheap look for a module statement.
    const syntax = (): ModuleFormat => {
      if (this.packageType(path.dirname(file)) !== "commonjs") return "commonjs";
      const code = source.toString();
      return MODULE_STATEMENT.test(code) ? syntaxFormat(code) : "commonjs";
    };
    if (loaded.format !== "commonjs" || this.formatFor(file, syntax) !== "module") return loaded;
    return { format: "module", source: withCommonJsScope(source.toString(), file), shortCircuit: true };
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
        { file, source, loader, define: this.defines.get(file), macros },
        this.settings.transpileFor?.(file) ?? this.settings.transpile,
        this.settings.cache,
      );
    } finally {
      this.transpiling = false;
    }
    const format = this.formatFor(file, () => result.format);
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
      plan.imports.map((entry) => this.resolveMacro(entry.specifier, file)),
    );
    return { expand: () => expandMacrosSync(prepared, context) };
  }

  /** A macro module as an import from `importer` would resolve (paths, tsconfig paths, packages). */
  private resolveMacro(specifier: string, importer: string): string | undefined {
    const resolver = this.settings.resolver;
    if (isPathSpecifier(specifier)) return resolver.resolvePath(path.resolve(path.dirname(importer), specifier));
    const found = resolver.resolveBare(specifier, path.dirname(importer));
    if (found) return found;
    try {
      return createRequire(importer).resolve(specifier);
    } catch {
      return undefined;
    }
  }

  /**
   * The module-format policy: the one place that decides how each script file runs (the load
   * hook asks it for transpiled files and for plain JavaScript alike). `.mts`/`.mjs` are ES
   * modules and `.cts`/`.cjs` CommonJS; under `"type": "module"` everything is an ES module;
   * every other file is an ES module when its syntax says so (import/export, import.meta,
   * top-level await), else CommonJS. That last rule is Node's for packages without a type; rt
   * applies it under `"type": "commonjs"` too, as bun does: `npm init` writes that type, and
   * TypeScript authors (and some published packages) write ESM syntax in such packages.
   */
  private formatFor(file: string, syntax: () => ModuleFormat): ModuleFormat {
    // Inline code (--eval, stdin) belongs to no package: only its syntax counts, as in Node.
    if (this.virtual.has(file)) return syntax();
    const ext = path.extname(file);
    if (ext === ".mts" || ext === ".mjs") return "module";
    if (ext === ".cts" || ext === ".cjs") return "commonjs";
    if (this.packageType(path.dirname(file)) === "module") return "module";
    return syntax();
  }

  private packageType(dir: string): string | undefined {
    if (this.packageTypes.has(dir)) return this.packageTypes.get(dir);
    const file = path.join(dir, "package.json");
    // lstat first: most directories have no package.json; a symbolic link loop is there and
    // reported by the read (existsSync would call it missing and leave Node to fail on it).
    const manifest = lstatSync(file, { throwIfNoEntry: false }) ? readPackageJson(file) : undefined;
    const parent = path.dirname(dir);
    const type = manifest ? (typeof manifest.type === "string" ? manifest.type : undefined) : parent === dir ? undefined : this.packageType(parent);
    this.packageTypes.set(dir, type);
    return type;
  }
}

// An import/export statement at the start of a line or after `;`/`}` (minified code), or
// import.meta: worth the costly syntax check. (`exports.x =` is not one: no space, brace or star.)
const MODULE_STATEMENT = /(?:^[ \t]*|[;}])(?:import[\s{*"']|export[\s{*])|\bimport\.meta\b/m;

const COMMONJS_NAMES = ["require", "__filename", "__dirname"];
/** The query of a CommonJS module's second URL, whose facade has every key (noteImport). */
const ALL_KEYS = "rt-commonjs-all-keys";
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

function asBuffer(source: ArrayBuffer | NodeJS.TypedArray): Buffer {
  if (source instanceof ArrayBuffer) return Buffer.from(source);
  return Buffer.from(source.buffer, source.byteOffset, source.byteLength);
}

function isPathSpecifier(specifier: string): boolean {
  return (
    specifier.startsWith("./") ||
    specifier.startsWith("../") ||
    specifier === "." ||
    specifier === ".." ||
    specifier.startsWith("file:") ||
    path.isAbsolute(specifier)
  );
}

/** A specifier without its `?query`/`#hash`, and that suffix. */
function splitSuffix(specifier: string): [string, string] {
  const at = specifier.search(/[?#]/);
  return at === -1 ? [specifier, ""] : [specifier.slice(0, at), specifier.slice(at)];
}

// path.resolve drops a trailing slash, which means "the directory, not a file".
function withTrailingSlash(specifier: string, resolved: string): string {
  return /[\\/]$/.test(specifier) && !resolved.endsWith(path.sep) ? resolved + path.sep : resolved;
}

function macroNotExpanded(specifier: string, parentURL: string | undefined, allowed: boolean): ProgramError {
  const parent = parentURL?.startsWith("file:") ? displayPath(fileURLToPath(parentURL)) : "[eval]";
  if (!allowed)
    return new ProgramError(`${parent}: macro import of "${specifier}" refused: --no-macros forbids running code at build time`, "ERR_MACRO_REFUSED");
  return new ProgramError(
    `${parent}: macro import of "${specifier}" that rt cannot expand: macros are expanded in the static imports of files rt transpiles (.ts, .tsx, .jsx, any file under --define/--drop) and in rt build, not in plain JavaScript that Node loads as it is or in import()`,
    "ERR_MACRO_USE",
  );
}

/** A URL such as `data:` or `node:`, never a package or a tsconfig alias. */
function hasScheme(specifier: string): boolean {
  return /^[a-z][a-z\d+.-]*:/i.test(specifier);
}

/** A package name (not a built-in, a `#` import, a URL or a name no package can have, like `@lib`), maybe with a subpath. */
function isPackageSpecifier(specifier: string): boolean {
  return !isBuiltin(specifier) && !hasScheme(specifier) && packageName(specifier) !== undefined;
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/** The file a not-found error from Node's resolver names, when it names one (a package's target). */
function missingTarget(error: unknown): string | undefined {
  const { url, message } = error as { url?: unknown; message?: unknown };
  if (typeof url === "string" && url.startsWith("file:")) return fileURLToPath(url);
  const named = typeof message === "string" ? /^Cannot find module '([^']+)'/.exec(message)?.[1] : undefined;
  return named && path.isAbsolute(named) ? named : undefined;
}

/**
 * What a failed resolution reports: rt's "Cannot find module" (with Node's "Did you mean" hint)
 * under the code Node gives it (MODULE_NOT_FOUND through require(), ERR_MODULE_NOT_FOUND through
 * import); Node's other resolution errors keep their code and text, without Node's stack.
 */
function resolutionError(error: unknown, specifier: string, parentPath: string | undefined, forRequire: boolean): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== "string" || typeof code !== "string") return error;
  if (isNotFound(error) || (code === "ERR_INVALID_MODULE_SPECIFIER" && !specifier.startsWith("#") && !isPackageSpecifier(specifier))) {
    const hint = /\n?(Did you mean[^\n]*)/.exec(message)?.[1];
    return moduleNotFound(specifier, parentPath, forRequire, hint);
  }
  if (!code.startsWith("ERR_") || error instanceof ProgramError) return error;
  const name = (error as { name?: unknown }).name;
  return new ProgramError(message, code, `${typeof name === "string" ? name : "Error"} [${code}]: ${message}\n`);
}

function moduleNotFound(specifier: string, parentPath: string | undefined, forRequire: boolean, hint?: string): ProgramError {
  const from = parentPath ?? process.cwd();
  const message = `Cannot find module '${specifier}' from '${from}'${hint ? `\n${hint}` : ""}`;
  return new ProgramError(message, forRequire ? "MODULE_NOT_FOUND" : "ERR_MODULE_NOT_FOUND");
}

// rt's policy runs a typeless package's .js file by its syntax, silently (see formatFor); Node
// would warn about the same file each run.
function silenceTypelessPackageWarning(): void {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]): void {
    const options = rest[0];
    const code = typeof options === "object" && options !== null ? (options as { code?: string }).code : rest[1];
    if (code === "MODULE_TYPELESS_PACKAGE_JSON") return;
    (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
}
