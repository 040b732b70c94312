// What a specifier resolves to, in rt's order: the "rt" module, the entry, paths (URLs through
// import, paths through require()), then bare specifiers by rt's rules (tsconfig `paths`,
// packages without `exports`, the auto-install cache) before Node's resolver decides (packages
// with `exports`/`imports`, built-ins, URLs), and what a failure reports. Decisions only, from
// the request, the files (FileResolver) and what the loader holds: hooks.ts carries them out.
import { createRequire, isBuiltin, type ResolveHookContext } from "node:module";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ProgramError } from "../errors.js";
import type { AutoInstaller, InstallStrategy } from "../install/auto-install.js";
import { displayPath } from "../text.js";
import { type FileResolver, packageName } from "./resolve.js";

/** One import or require(), as the resolve hook is given it. */
export interface ResolveRequest {
  readonly specifier: string;
  /** The importing file; undefined for the entry, --import and inline code. */
  readonly parentPath: string | undefined;
  /** Where a relative specifier starts: the importer's directory, else the working directory. */
  readonly fromDir: string;
  /** Node's conditions for the request. */
  readonly conditions: string[];
  /** Through require() (the "require" condition), not import. */
  readonly forRequire: boolean;
  /** `with { type: "macro" }`. */
  readonly macro: boolean;
}

/** What resolution takes from the loader besides the files (named as in LoaderSettings). */
export interface ResolveScope {
  readonly resolver: FileResolver;
  /** The file that backs the "rt" module. */
  readonly apiFile: string;
  /** The entry, already resolved by the CLI: its path and URL → URL. */
  readonly entries: ReadonlyMap<string, string>;
  /** Sources that live in memory (stdin, --eval), by virtual path. */
  readonly virtual: ReadonlyMap<string, string>;
  /** --conditions, after Node's own. */
  readonly conditions: readonly string[];
  /** False under --no-addons: the "node-addons" condition is off. */
  readonly addons: boolean;
  readonly macros: { readonly allowed: boolean };
  /** Where packages come from; undefined under --no-install: node_modules only. */
  readonly installer?: Pick<AutoInstaller, "strategy" | "isMissing">;
}

export type Resolution =
  /** The "rt" module: CommonJS, given to Node as it is (no tracker, no interop). */
  | { readonly kind: "rt"; readonly url: string }
  /** The URL rt's rules name. */
  | { readonly kind: "url"; readonly url: string }
  /** Not rt's: Node's resolver decides, with these conditions; `strategy` says whether the auto-install cache stands behind it. */
  | { readonly kind: "node"; readonly conditions: string[]; readonly strategy: InstallStrategy }
  /** The package comes from the auto-install cache (resolved there by Node's rules, with these conditions). */
  | { readonly kind: "cache"; readonly conditions: string[] }
  | { readonly kind: "failure"; readonly error: ProgramError };

/** rt's bundle: what it imports is rt's business, not the program's (no tsconfig, no auto-install). */
const RT_DIR = __dirname + path.sep;

/** Importers' URLs → their paths: each module's imports and require() calls name it again. */
const parentPaths = new Map<string, string>();

export function resolveRequest(specifier: string, context: Pick<ResolveHookContext, "parentURL" | "conditions" | "importAttributes">): ResolveRequest {
  const parentURL = context.parentURL;
  let parentPath = parentURL === undefined ? undefined : parentPaths.get(parentURL);
  if (parentPath === undefined && parentURL?.startsWith("file:")) parentPaths.set(parentURL, (parentPath = fileURLToPath(parentURL)));
  return {
    specifier,
    parentPath,
    // A directory's URL (Node resolves --test-reporter modules from `${cwd}/`) is where to start itself.
    fromDir: parentPath ? (parentPath.endsWith(path.sep) ? path.resolve(parentPath) : path.dirname(parentPath)) : process.cwd(),
    conditions: context.conditions,
    forRequire: context.conditions.includes("require"),
    macro: context.importAttributes?.type === "macro",
  };
}

export function resolveSpecifier(request: ResolveRequest, scope: ResolveScope): Resolution {
  const { specifier, fromDir } = request;
  if (specifier === "rt") return { kind: "rt", url: pathToFileURL(scope.apiFile).href };
  // Transpiled files have had their macro imports expanded and removed; any left is in code rt
  // does not transpile (plain JavaScript, a dynamic import()), where it would run at run time.
  if (request.macro) return { kind: "failure", error: macroNotExpanded(specifier, request.parentPath, scope.macros.allowed) };
  const entry = scope.entries.get(specifier);
  if (entry) return { kind: "url", url: entry };

  if (isPathSpecifier(specifier)) {
    const how = request.forRequire ? "require" : "import";
    const url = scope.resolver.fromInstalled(fromDir, `${how}\0${specifier}`, () => resolvePathSpecifier(specifier, fromDir, request.forRequire, scope));
    return url ? { kind: "url", url } : { kind: "failure", error: moduleNotFound(request) };
  }
  const installer = scope.installer;
  const strategy = installer && isPackageSpecifier(specifier) ? installer.strategy(request.parentPath) : "none";
  // rt's own lazily loaded modules (esbuild, jsonc-parser) resolve as in Node.
  if (!isBuiltin(specifier) && !specifier.startsWith("#") && !(fromDir + path.sep).startsWith(RT_DIR)) {
    const [bare, suffix] = splitSuffix(specifier);
    // A URL is no package, but a tsconfig alias may look like one (`ns:*`): it maps before Node
    // reads the scheme. Packages come from the auto-install cache instead of node_modules under "cache".
    const isUrl = hasScheme(specifier);
    const found = isUrl || strategy === "cache" ? scope.resolver.resolveTsconfigPath(bare, fromDir, isUrl) : scope.resolver.resolveBare(bare, fromDir);
    if (found) return { kind: "url", url: pathToFileURL(found).href + suffix };
  }
  const own = scope.addons ? request.conditions : request.conditions.filter((condition) => condition !== "node-addons");
  const conditions = scope.conditions.length ? [...own, ...scope.conditions] : own;
  return strategy === "cache" ? { kind: "cache", conditions } : { kind: "node", conditions, strategy };
}

/**
 * Where a request goes after Node's resolver failed with `error` (undefined: the error stands):
 * a package's `main`/`exports`/`imports` target naming compiled output that is not there is its
 * TypeScript source; a package missing from node_modules comes from the cache behind it.
 */
export function afterNodeFailed(
  error: unknown,
  request: ResolveRequest,
  node: Extract<Resolution, { kind: "node" }>,
  scope: ResolveScope,
): Extract<Resolution, { kind: "url" | "cache" }> | undefined {
  if (!isNotFound(error)) return undefined;
  const source = missingTarget(error);
  const found = source && scope.resolver.sourceFor(source);
  if (found) return { kind: "url", url: pathToFileURL(found).href + splitSuffix(request.specifier)[1] };
  if (node.strategy === "fallback" && scope.installer!.isMissing(request.specifier, request.parentPath)) return { kind: "cache", conditions: node.conditions };
  return undefined;
}

/**
 * The URL a relative, absolute or file: specifier names. Through import it is a URL first, as
 * in Node: percent-escapes name characters (`%3F` a `?` in the file name) and `?query`/`#hash`
 * stay on the URL in normal form. Through require() (and when the URL names no file, as
 * `./100%.ts` does not) it is a path: the literal name, else without its `?query`/`#hash`.
 */
function resolvePathSpecifier(specifier: string, fromDir: string, forRequire: boolean, scope: ResolveScope): string | undefined {
  const find = (target: string, suffix: string) => {
    if (scope.virtual.has(target)) return pathToFileURL(target).href + suffix;
    const found = scope.resolver.resolvePath(target);
    return found && pathToFileURL(found).href + suffix;
  };
  if (!forRequire || specifier.startsWith("file:")) {
    const url = new URL(specifier, scope.resolver.directoryURL(fromDir));
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

/** A macro module as an import from `importer` would resolve (paths, tsconfig paths, packages). */
export function resolveMacroModule(specifier: string, importer: string, resolver: FileResolver): string | undefined {
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
 * What a failed resolution reports: rt's "Cannot find module" (with Node's "Did you mean" hint)
 * under the code Node gives it (MODULE_NOT_FOUND through require(), ERR_MODULE_NOT_FOUND through
 * import); Node's own error when it names the file a package's `main`/`exports` points to (the
 * package is there, its entry is not), and Node's other resolution errors keep their code and
 * text, without Node's stack.
 */
export function resolutionError(error: unknown, request: ResolveRequest): unknown {
  const { specifier } = request;
  const code = (error as { code?: unknown } | null)?.code;
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== "string" || typeof code !== "string") return error;
  const notFound = isNotFound(error);
  if (
    (notFound && !missingEntry(error, specifier)) ||
    (code === "ERR_INVALID_MODULE_SPECIFIER" && !specifier.startsWith("#") && !isPackageSpecifier(specifier))
  ) {
    const hint = /\n?(Did you mean[^\n]*)/.exec(message)?.[1];
    return moduleNotFound(request, hint);
  }
  if (error instanceof ProgramError || (!code.startsWith("ERR_") && !notFound)) return error;
  const name = (error as { name?: unknown }).name;
  return new ProgramError(message, code, `${typeof name === "string" ? name : "Error"} [${code}]: ${message}\n`);
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

/**
 * Whether Node's not-found error names the file a package's `main`/`exports` points to: a file
 * other than the one the specifier itself names (`pkg/sub` missing is the importer's mistake).
 */
function missingEntry(error: unknown, specifier: string): boolean {
  const missing = missingTarget(error);
  return missing !== undefined && isPackageSpecifier(specifier) && !missing.endsWith(path.sep + splitSuffix(specifier)[0].replaceAll("/", path.sep));
}

/** The file a not-found error from Node's resolver names, when it names one (a package's target). */
function missingTarget(error: unknown): string | undefined {
  const { url, message } = error as { url?: unknown; message?: unknown };
  if (typeof url === "string" && url.startsWith("file:")) return fileURLToPath(url);
  // import of a package whose `main` is missing: "Cannot find package '/abs/main.js' imported from ..."
  const named = typeof message === "string" ? /^Cannot find (?:module|package) '([^']+)'/.exec(message)?.[1] : undefined;
  return named && path.isAbsolute(named) ? named : undefined;
}

function macroNotExpanded(specifier: string, parentPath: string | undefined, allowed: boolean): ProgramError {
  const parent = parentPath ? displayPath(parentPath) : "[eval]";
  if (!allowed)
    return new ProgramError(`${parent}: macro import of "${specifier}" refused: --no-macros forbids running code at build time`, "ERR_MACRO_REFUSED");
  return new ProgramError(
    `${parent}: macro import of "${specifier}" that rt cannot expand: macros are expanded in the static imports of files rt transpiles (.ts, .tsx, .jsx, any file under --define/--drop) and in rt build, not in plain JavaScript that Node loads as it is or in import()`,
    "ERR_MACRO_USE",
  );
}

function moduleNotFound({ specifier, parentPath, forRequire }: ResolveRequest, hint?: string): ProgramError {
  const from = parentPath ?? process.cwd();
  const message = `Cannot find module '${specifier}' from '${from}'${hint ? `\n${hint}` : ""}`;
  return new ProgramError(message, forRequire ? "MODULE_NOT_FOUND" : "ERR_MODULE_NOT_FOUND");
}
