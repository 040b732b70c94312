// File resolution rt adds on top of Node's: extensionless and directory imports in
// `--extension-order` (inside node_modules compiled JavaScript first), `.js` specifiers naming `.ts` files, tsconfig `paths`/`baseUrl` (of the
// tsconfig nearest the importer), and packages without `exports` resolved by CommonJS's rules
// for every importer (subpaths without extension, directory `main`s, `--main-fields`).
// Packages with `exports`/`imports` go to Node; `sourceFor` maps a missing target to its source.
// Every rule reads the disk through a ResolveFs, so the unit table can give it files in memory.
// (What a whole specifier resolves to, these rules among others, is resolve-specifier.ts.)
import { lstatSync, realpathSync, statSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { cannotRead, parseJson, readProjectFile } from "../data-files.js";
import type { TsconfigPaths } from "../transpile/tsconfig.js";

export interface ResolveSettings {
  readonly extensions: readonly string[];
  readonly mainFields?: readonly string[];
  readonly preserveSymlinks: boolean;
  /** The `paths`/`baseUrl` of the tsconfig nearest a directory (a TsconfigLocator). */
  readonly tsconfigs?: { forDirectory(dir: string): { readonly paths?: TsconfigPaths } };
}

/** What the rules ask of the file system. */
export interface ResolveFs {
  isFile(file: string): boolean;
  isDirectory(file: string): boolean;
  /** The path with every symbolic link followed. */
  realpath(file: string): string;
  /** A package.json's fields: undefined when there is none or it is not an object. */
  readPackageJson(file: string): Record<string, unknown> | undefined;
}

// A `.js` (etc.) specifier may name the TypeScript file it compiles from.
const SOURCE_FOR_OUTPUT: Readonly<Record<string, readonly string[]>> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};

const DEFAULT_MAIN_FIELDS = ["main"];
/** In a path: the file is inside an installed package. */
export const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** The disk. */
export const NODE_FS: ResolveFs = {
  isFile: (file) => statSync(file, { throwIfNoEntry: false })?.isFile() ?? false,
  isDirectory: (file) => statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false,
  realpath,
  readPackageJson,
};

/**
 * Real directories of the directories seen, kept for the process as Node's own module loaders keep
 * theirs. libc's realpath() asks readlink() of every component of a path: 10-15 system calls for
 * each file under node_modules, where this costs one lstat() once the directory is known.
 */
const realDirectories = new Map<string, string>();

function realpath(file: string): string {
  if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() !== false) return realpathSync.native(file);
  const dir = path.dirname(file);
  let real = realDirectories.get(dir);
  if (real === undefined) realDirectories.set(dir, (real = realpathSync.native(dir)));
  return path.join(real, path.basename(file));
}

/**
 * `find()`, kept under `key` when `where` is inside node_modules. Installed packages do not change
 * while a program runs, and their modules import the same few files from many places: what a
 * lookup there found is kept, as Node's CommonJS loader keeps it. A project's own files are looked
 * up every time (a program may write them), and a miss is never kept.
 */
function keptWhenInstalled(kept: Map<string, string>, where: string, key: string, find: () => string | undefined): string | undefined {
  if (!where.includes(NODE_MODULES)) return find();
  let found = kept.get(key);
  if (found === undefined) {
    found = find();
    if (found !== undefined) kept.set(key, found);
  }
  return found;
}

export class FileResolver {
  /** Package directory → its package.json (undefined: none, or not an object). */
  private readonly manifests = new Map<string, Record<string, unknown> | undefined>();
  /** Paths inside node_modules → the file each resolved to (resolvePath). */
  private readonly installedPaths = new Map<string, string>();
  /** Requests made from directories inside node_modules → what each resolved to (fromInstalled). */
  private readonly installedRequests = new Map<string, string>();
  /** Importers' directories as URLs, for resolving relative specifiers as URLs. */
  private readonly directoryURLs = new Map<string, URL>();
  /**
   * The extensions tried inside node_modules: compiled JavaScript before the rest, in
   * --extension-order's order otherwise. A package that ships its sources beside its output
   * runs its output there (`index.js` before `index.ts`), as in Node and tsx; a project's own
   * files keep the flag's order (sources first, as bun).
   */
  private readonly packageExtensions: readonly string[];

  constructor(
    private readonly settings: ResolveSettings,
    private readonly fs: ResolveFs = NODE_FS,
  ) {
    const compiled = settings.extensions.filter((ext) => Object.hasOwn(SOURCE_FOR_OUTPUT, ext));
    this.packageExtensions = [...compiled, ...settings.extensions.filter((ext) => !compiled.includes(ext))];
  }

  /**
   * The file an absolute path names, trying extensions, `.js`→`.ts` and directory entries; a
   * trailing slash names a directory only. Symlinks resolve to the real path unless kept.
   */
  resolvePath(target: string, keepSymlinks = this.settings.preserveSymlinks): string | undefined {
    return keptWhenInstalled(this.installedPaths, target, keepSymlinks ? `${target}\0` : target, () => {
      const isDirectoryPath = target.endsWith("/") || target.endsWith(path.sep);
      const found = isDirectoryPath ? this.asDirectory(target) : (this.asFile(target) ?? this.asDirectory(target));
      return found && !keepSymlinks ? this.fs.realpath(found) : found;
    });
  }

  /**
   * What `resolve` finds for `request` made from `fromDir`, kept when that is inside node_modules:
   * each require() asks again, even for a module already loaded.
   */
  fromInstalled(fromDir: string, request: string, resolve: () => string | undefined): string | undefined {
    return keptWhenInstalled(this.installedRequests, fromDir + path.sep, `${fromDir}\0${request}`, resolve);
  }

  /**
   * A bare specifier (a package, maybe with a subpath, or a tsconfig alias) imported from a file
   * in `fromDir`, where rt's rules decide: tsconfig `paths`/`baseUrl`, then a package without
   * `exports`. undefined: Node's resolution (and the hooks after rt's) decides.
   */
  resolveBare(specifier: string, fromDir: string): string | undefined {
    return this.resolveTsconfigPath(specifier, fromDir) ?? this.resolvePackage(specifier, fromDir);
  }

  /**
   * tsconfig `paths` (longest matching pattern first), then `baseUrl`; not for importers in
   * node_modules. A specifier that reads as a URL (`ns:x`) matches only a pattern whose own
   * text has its colon (`ns:*`): no catch-all `*` or `baseUrl` takes a URL.
   */
  resolveTsconfigPath(specifier: string, fromDir: string, isUrl = false): string | undefined {
    if ((fromDir + path.sep).includes(NODE_MODULES)) return undefined;
    const config = this.settings.tsconfigs?.forDirectory(fromDir).paths;
    if (!config) return undefined;
    let best: { pattern: string; star: string } | undefined;
    for (const pattern of Object.keys(config.paths)) {
      const star = pattern.indexOf("*");
      if (star === -1) {
        if (pattern === specifier) {
          best = { pattern, star: "" };
          break;
        }
        continue;
      }
      const prefix = pattern.slice(0, star);
      if (isUrl && !prefix.includes(":")) continue;
      const suffix = pattern.slice(star + 1);
      if (specifier.startsWith(prefix) && specifier.endsWith(suffix) && specifier.length >= prefix.length + suffix.length) {
        if (!best || prefix.length > best.pattern.indexOf("*")) {
          best = { pattern, star: specifier.slice(prefix.length, specifier.length - suffix.length) };
        }
      }
    }
    if (best) {
      for (const target of config.paths[best.pattern] ?? []) {
        const found = this.resolvePath(path.resolve(config.base, target.replace("*", best.star)));
        if (found) return found;
      }
    }
    return config.baseUrl && !isUrl ? this.resolvePath(path.resolve(config.baseUrl, specifier)) : undefined;
  }

  /**
   * A package without `exports`, found in node_modules from `fromDir` up, resolved as require()
   * resolves it, for ES modules too (as bun and tsx do): a subpath tries extensions, then a
   * directory (its package.json `main`, then index); the package itself its main fields
   * (`--main-fields`, default `main`), then index. undefined when the package has `exports`,
   * is not there, or has no such file (Node then reports it, with its "Did you mean" hint).
   */
  resolvePackage(specifier: string, fromDir: string): string | undefined {
    const name = packageName(specifier);
    if (!name) return undefined;
    const packageDir = this.findPackage(name, fromDir);
    if (!packageDir) return undefined;
    let manifest = this.manifests.get(packageDir);
    if (!this.manifests.has(packageDir)) this.manifests.set(packageDir, (manifest = this.fs.readPackageJson(path.join(packageDir, "package.json"))));
    if (manifest?.exports !== undefined && manifest.exports !== null) return undefined;
    const subpath = specifier.slice(name.length);
    if (subpath) return this.resolvePath(packageDir + subpath);
    for (const field of this.settings.mainFields ?? DEFAULT_MAIN_FIELDS) {
      const entry = manifest?.[field];
      if (typeof entry !== "string") continue;
      const found = this.resolvePath(path.resolve(packageDir, entry));
      if (found) return found;
    }
    const index = this.asIndex(packageDir);
    return index && !this.settings.preserveSymlinks ? this.fs.realpath(index) : index;
  }

  /** `dir` as a file: URL ending in a slash, the base of relative URLs. */
  directoryURL(dir: string): URL {
    let url = this.directoryURLs.get(dir);
    if (!url) this.directoryURLs.set(dir, (url = pathToFileURL(dir + path.sep)));
    return url;
  }

  /** The TypeScript source of a missing output file (a package's `main`, `exports` or `imports` target). */
  sourceFor(missing: string): string | undefined {
    const found = this.asSource(missing);
    return found && !this.settings.preserveSymlinks ? this.fs.realpath(found) : found;
  }

  private asFile(target: string): string | undefined {
    if (this.fs.isFile(target)) return target;
    // Before extensions: with target.ts and target.js.ts both there, ./target.js is target.ts.
    const source = this.asSource(target);
    if (source) return source;
    for (const ext of this.extensionsIn(target)) if (this.fs.isFile(target + ext)) return target + ext;
    return undefined;
  }

  private asSource(output: string): string | undefined {
    const ext = path.extname(output);
    for (const sourceExt of SOURCE_FOR_OUTPUT[ext] ?? []) {
      const candidate = output.slice(0, -ext.length) + sourceExt;
      if (this.fs.isFile(candidate)) return candidate;
    }
    return undefined;
  }

  private asDirectory(target: string): string | undefined {
    if (!this.fs.isDirectory(target)) return undefined;
    const main = this.fs.readPackageJson(path.join(target, "package.json"))?.main;
    if (typeof main === "string") {
      const found = this.asFile(path.resolve(target, main)) ?? this.asIndex(path.resolve(target, main));
      if (found) return found;
    }
    return this.asIndex(target);
  }

  private asIndex(dir: string): string | undefined {
    for (const ext of this.extensionsIn(dir)) {
      const candidate = path.join(dir, `index${ext}`);
      if (this.fs.isFile(candidate)) return candidate;
    }
    return undefined;
  }

  private extensionsIn(target: string): readonly string[] {
    return target.includes(NODE_MODULES) ? this.packageExtensions : this.settings.extensions;
  }

  /** The directory of package `name` in the nearest node_modules from `fromDir` up that has it. */
  private findPackage(name: string, fromDir: string): string | undefined {
    for (let dir = fromDir; ; dir = path.dirname(dir)) {
      if (path.basename(dir) !== "node_modules") {
        const candidate = path.join(dir, "node_modules", name);
        if (this.fs.isDirectory(candidate)) return candidate;
      }
      if (path.dirname(dir) === dir) return undefined;
    }
  }
}

/** The package a bare specifier names (`@scope/name` or `name`), or undefined when it names none (`@lib`, `#x`, `.`). */
export function packageName(specifier: string): string | undefined {
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? (parts[0]!.length > 1 && parts[1] ? `${parts[0]}/${parts[1]}` : undefined) : parts[0];
  return name && !name.startsWith(".") && !name.startsWith("#") && !/[\\%]/.test(name) ? name : undefined;
}

/** The specifiers that name node:worker_threads (a built-in wins over any package of that name). */
export function isWorkerThreadsSpecifier(specifier: string): boolean {
  return specifier === "worker_threads" || specifier === "node:worker_threads";
}

/**
 * A package.json's fields; undefined when there is none. One that cannot be read (a symbolic
 * link loop, no permission) or is not JSON is the user's to fix: one line, file:line:column.
 * (Node would stop on it too, with its own stack.)
 */
export function readPackageJson(file: string): Record<string, unknown> | undefined {
  const text = readProjectFile(file, cannotRead(file, "ERR_PACKAGE_JSON"), { skipDirectory: true });
  if (text === undefined) return undefined;
  const value = parseJson(file, text, "ERR_PACKAGE_JSON");
  return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}
