// Auto-install, the program's side: which bare imports come from the global cache instead of
// node_modules (--install, -i, --no-install), and where in the cache a specifier resolves to.
// A warm cache is read with a few synchronous file reads; a package not in the cache (or stale,
// or tampered with) is fetched by the installer thread, which this one waits for.
import { statSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ProgramError } from "../errors.js";
import { flagDefault } from "../flags/table.js";
import type { FlagValues } from "../flags/parse.js";
import { packageName, readPackageJson } from "../loader/resolve.js";
import type { InstallerChannel, InstallJob, InstallRequest, InstallResult } from "./installer.js";
import { InstallStore, type Resolution } from "./store.js";

/** How long a resolved range or tag is used before the registry is asked again (exact versions never change). */
const FRESH_FOR_MS = 24 * 60 * 60 * 1000;

/** "cache": resolve from the auto-install cache; "fallback": from node_modules, else the cache; "none": node_modules only. */
export type InstallStrategy = "cache" | "fallback" | "none";

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const EXACT_VERSION = /^v?\d+\.\d+\.\d+(?:-[\w.-]+)?(?:\+[\w.-]+)?$/;

export class AutoInstaller {
  private readonly store: InstallStore | undefined;
  /** Directory → whether a node_modules is found from it up. */
  private readonly nodeModulesFound = new Map<string, boolean>();
  private suspended = false;
  private installer: (InstallerChannel & { readonly worker: import("node:worker_threads").Worker }) | undefined;
  /** name@range → its entry directory, checked once per process. */
  private readonly entries = new Map<string, string>();
  private readonly manifests = new Map<string, Record<string, unknown> | undefined>();

  constructor(
    private readonly mode: "auto" | "fallback" | "force",
    private readonly preferOffline: boolean,
    private readonly preferLatest: boolean,
    cacheRoot: string | undefined,
  ) {
    this.store = cacheRoot ? new InstallStore(path.join(cacheRoot, "install")) : undefined;
  }

  /** From the flags: undefined under --no-install. */
  static fromFlags(values: FlagValues, cacheRoot: string | undefined): AutoInstaller | undefined {
    if (values["no-install"] === true) return undefined;
    const mode = values.install ?? flagDefault("install");
    return new AutoInstaller(mode, values["prefer-offline"] === true, values["prefer-latest"] === true, cacheRoot);
  }

  /** For a bare specifier (not a built-in) imported from `parentPath`. */
  strategy(parentPath: string | undefined): InstallStrategy {
    if (this.suspended) return "none";
    if (parentPath && this.inStore(parentPath)) return "cache";
    // Packages installed in a node_modules (rt's own among them) and rt's bundle (this file's
    // directory) resolve their dependencies from node_modules.
    if (parentPath && (parentPath.includes(`${path.sep}node_modules${path.sep}`) || parentPath.startsWith(__dirname + path.sep))) return "none";
    if (this.mode === "force") return "cache";
    if (this.mode === "fallback") return "fallback";
    // auto: only where no node_modules is found from the importer's directory up, and after
    // Node's resolution (with the program's own resolve hooks) found nothing.
    return this.hasNodeModules(parentPath ? path.dirname(parentPath) : process.cwd()) ? "none" : "fallback";
  }

  /** Runs `resolve` with Node's own resolution of bare specifiers. */
  withoutInstalling<T>(resolve: () => T): T {
    this.suspended = true;
    try {
      return resolve();
    } finally {
      this.suspended = false;
    }
  }

  /** Under "fallback": whether node_modules lacks the package (a missing file of an installed package is no reason to install). */
  isMissing(specifier: string, parentPath: string | undefined): boolean {
    const name = packageName(specifier);
    if (!name) return false;
    for (let dir = parentPath ? path.dirname(parentPath) : process.cwd(); ; dir = path.dirname(dir)) {
      if (statSync(path.join(dir, "node_modules", name), { throwIfNoEntry: false })?.isDirectory()) return false;
      if (path.dirname(dir) === dir) return true;
    }
  }

  /**
   * What Node's resolver should resolve instead: the package name and subpath, from a parent
   * inside the package's cache entry (so `exports` and conditions work as in node_modules).
   */
  locate(specifier: string, parentPath: string | undefined): { specifier: string; parentURL: string } {
    const { name, range: given, subpath } = parseSpecifier(specifier);
    const entry = this.selfReference(name, parentPath) ?? this.entry(name, given ?? this.dependencyRange(name, parentPath) ?? "latest");
    return { specifier: name + subpath, parentURL: pathToFileURL(path.join(entry, "rt-entry.json")).href };
  }

  private entry(name: string, range: string): string {
    const key = `${name}@${range}`;
    const known = this.entries.get(key);
    if (known) return known;
    const store = this.store;
    if (!store) throw installError(name, range, "no cache directory for installed packages: set HOME or XDG_CACHE_HOME");
    let resolution = this.indexed(store, name, range);
    if (!resolution || !store.isIntact(name, resolution)) {
      const failure = this.runInstaller(store, { name, range, refresh: resolution !== undefined || this.preferLatest });
      const refreshed = store.readIndex(name)?.ranges[range];
      resolution = refreshed && store.isIntact(name, refreshed) ? refreshed : undefined;
      if (!resolution) throw installError(name, range, failure ?? "the installer left no package in the cache");
    }
    const dir = store.entryDir(name, resolution);
    this.entries.set(key, dir);
    return dir;
  }

  /** The cached resolution of the range, unless it must be checked with the registry. */
  private indexed(store: InstallStore, name: string, range: string): Resolution | undefined {
    const cached = store.readIndex(name)?.ranges[range];
    if (!cached || EXACT_VERSION.test(range) || this.preferOffline) return cached;
    if (this.preferLatest || Date.now() - cached.fetched > FRESH_FOR_MS) return undefined;
    return cached;
  }

  /** Runs the installer (a thread started at the first miss); returns its message when the request failed. */
  private runInstaller(store: InstallStore, request: InstallRequest): string | undefined {
    // Required here: worker_threads is not part of rt's startup.
    const { MessageChannel, Worker, receiveMessageOnPort } = require("node:worker_threads") as typeof import("node:worker_threads");
    if (!this.installer) {
      const signal = new Int32Array(new SharedArrayBuffer(4));
      const { port1, port2 } = new MessageChannel();
      const channel: InstallerChannel = { signal, port: port2 };
      const worker = new Worker(path.join(__dirname, "installer.cjs"), { workerData: channel, transferList: [port2] });
      worker.unref();
      this.installer = { worker, signal, port: port1 };
    }
    const { worker, signal, port } = this.installer;
    const job: InstallJob = { root: store.root, cwd: process.cwd(), preferOffline: this.preferOffline, requests: [request] };
    Atomics.store(signal, 0, 0);
    worker.postMessage(job);
    if (Atomics.wait(signal, 0, 0, INSTALL_TIMEOUT_MS) === "timed-out") return `no answer from the registry within ${INSTALL_TIMEOUT_MS / 60_000} minutes`;
    const result = receiveMessageOnPort(port)?.message as InstallResult | undefined;
    return result ? result.failures[0]?.message : "the installer stopped without an answer";
  }

  /** A package importing its own name resolves within its own entry. */
  private selfReference(name: string, parentPath: string | undefined): string | undefined {
    const cached = parentPath && this.cachedPackage(parentPath);
    return cached && cached.name === name ? cached.entryDir : undefined;
  }

  /** The range the importer's package.json asks for: a cached package's own, or the project's nearest. */
  private dependencyRange(name: string, parentPath: string | undefined): string | undefined {
    const cached = parentPath && this.cachedPackage(parentPath);
    const manifest = cached
      ? readPackageJson(path.join(cached.entryDir, "node_modules", cached.name, "package.json"))
      : this.manifestFor(parentPath ? path.dirname(parentPath) : process.cwd());
    for (const field of DEPENDENCY_FIELDS) {
      const range = (manifest?.[field] as Record<string, unknown> | undefined)?.[name];
      if (typeof range === "string") return range;
    }
    return undefined;
  }

  /** The cache entry and package a file belongs to: store/<entry>/node_modules/<name>/... */
  private cachedPackage(file: string): { entryDir: string; name: string } | undefined {
    if (!this.inStore(file)) return undefined;
    const [entry, modules, first, second] = path.relative(this.store!.storeDir, file).split(path.sep);
    if (modules !== "node_modules" || !first) return undefined;
    return { entryDir: path.join(this.store!.storeDir, entry!), name: first.startsWith("@") ? `${first}/${second}` : first };
  }

  private manifestFor(dir: string): Record<string, unknown> | undefined {
    if (this.manifests.has(dir)) return this.manifests.get(dir);
    const manifest = readPackageJson(path.join(dir, "package.json"));
    const found = manifest ?? (path.dirname(dir) === dir ? undefined : this.manifestFor(path.dirname(dir)));
    this.manifests.set(dir, found);
    return found;
  }

  private hasNodeModules(dir: string): boolean {
    let found = this.nodeModulesFound.get(dir);
    if (found === undefined) {
      const parent = path.dirname(dir);
      found = statSync(path.join(dir, "node_modules"), { throwIfNoEntry: false })?.isDirectory() === true || (parent !== dir && this.hasNodeModules(parent));
      this.nodeModulesFound.set(dir, found);
    }
    return found;
  }

  private inStore(file: string): boolean {
    return this.store !== undefined && file.startsWith(this.store.storeDir + path.sep);
  }
}

/** `zod`, `zod@3`, `zod@^3.22/lib/x`, `@scope/name@1.2.3/sub`. */
export function parseSpecifier(specifier: string): { name: string; range: string | undefined; subpath: string } {
  const parts = specifier.split("/");
  const at = specifier.startsWith("@") ? 1 : 0;
  const [base, range] = splitOnce(parts[at]!, "@");
  const name = [...parts.slice(0, at), base].join("/");
  const subpath = parts.length > at + 1 ? `/${parts.slice(at + 1).join("/")}` : "";
  return { name, range: range || undefined, subpath };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const index = text.indexOf(separator);
  return index === -1 ? [text, undefined] : [text.slice(0, index), text.slice(index + 1)];
}

function installError(name: string, range: string, message: string): ProgramError {
  const what = range === "latest" ? name : `${name}@${range}`;
  return new ProgramError(`could not install "${what}": ${message}`, "ERR_RT_INSTALL");
}
