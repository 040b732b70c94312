// The installer thread (dist/installer.cjs): the program's thread starts it at its first cache
// miss and blocks (Atomics.wait) until it answers, since module resolution is synchronous and
// fetching is not. It resolves each requested range with npm's own pacote (the registry from
// npm's config), extracts the package and, recursively, its dependencies into the store, each
// tarball checked against its integrity, and writes the index. It stays for later misses, so
// pacote loads once per process.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import npa from "npm-package-arg";
import pacote from "pacote";
import { npmOptions } from "./npm-config.js";
import { InstallStore, type PackageIndex, type Resolution } from "./store.js";

export interface InstallRequest {
  readonly name: string;
  /** As written: a version, range, tag or `npm:` alias. */
  readonly range: string;
  /** Ask the registry even if its answer is cached (stale index, --prefer-latest). */
  readonly refresh: boolean;
}

export interface InstallJob {
  readonly root: string;
  readonly cwd: string;
  readonly preferOffline: boolean;
  readonly requests: readonly InstallRequest[];
}

export interface InstallResult {
  readonly failures: ReadonlyArray<{ readonly name: string; readonly range: string; readonly message: string }>;
}

type Manifest = Awaited<ReturnType<typeof pacote.manifest>>;

class TreeInstaller {
  /** name@version → its tree, installed once per run even when many packages depend on it. */
  private readonly trees = new Map<string, Promise<void>>();
  private readonly store: InstallStore;
  private readonly options: Record<string, unknown>;

  constructor(job: InstallJob) {
    this.store = new InstallStore(job.root);
    this.options = { ...npmOptions(job.cwd, process.env), cache: this.store.cacacheDir, fullMetadata: false, preferOffline: job.preferOffline };
  }

  async install(name: string, range: string, refresh: boolean): Promise<void> {
    const spec = registrySpec(name, range);
    const manifest = await pacote.manifest(spec.raw, { ...this.options, preferOnline: refresh });
    const resolution: Resolution = { version: manifest.version, integrity: manifest._integrity! };
    this.record(name, range, resolution);
    const key = `${name}@${resolution.version}`;
    let tree = this.trees.get(key);
    if (!tree) this.trees.set(key, (tree = this.installTree(name, spec, resolution, manifest, refresh)));
    return tree;
  }

  private async installTree(name: string, spec: npa.Result, resolution: Resolution, manifest: Manifest, refresh: boolean): Promise<void> {
    if (!this.store.isIntact(name, resolution)) await this.extract(name, spec, resolution);
    const optional = new Set([
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.entries((manifest as { peerDependenciesMeta?: Record<string, { optional?: boolean }> }).peerDependenciesMeta ?? {}).flatMap(([peer, meta]) =>
        meta.optional ? [peer] : [],
      ),
    ]);
    const dependencies = { ...manifest.peerDependencies, ...manifest.optionalDependencies, ...manifest.dependencies };
    await Promise.all(
      Object.entries(dependencies).map(async ([dependency, range]) => {
        try {
          await this.install(dependency, range, refresh);
        } catch (error) {
          if (optional.has(dependency)) return;
          throw new Error(`${dependency}@${range} (a dependency of ${name}@${resolution.version}): ${messageOf(error)}`, { cause: error });
        }
      }),
    );
  }

  /** Into a temporary directory, then renamed into place: a concurrent process sees all or nothing. */
  private async extract(name: string, spec: npa.Result, resolution: Resolution): Promise<void> {
    const final = this.store.entryDir(name, resolution);
    const temporary = `${final}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const packageDir = path.join(temporary, "node_modules", name);
    try {
      const alias = spec.type === "alias" ? (spec as npa.AliasResult).subSpec.name : undefined;
      const exact = alias ? `${name}@npm:${alias}@${resolution.version}` : `${name}@${resolution.version}`;
      await pacote.extract(exact, packageDir, { ...this.options, integrity: resolution.integrity });
      const files = readdirSync(packageDir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => {
          const file = path.join(entry.parentPath, entry.name);
          const stat = statSync(file);
          return [path.relative(packageDir, file), stat.size, stat.ctimeMs] as const;
        });
      writeFileSync(path.join(temporary, "rt-entry.json"), JSON.stringify({ name, version: resolution.version, integrity: resolution.integrity, files }));
      try {
        renameSync(temporary, final);
      } catch {
        // Another process got there first (keep its entry), or the entry was tampered with.
        if (this.store.isIntact(name, resolution)) return;
        const discarded = `${final}.discarded-${process.pid}`;
        renameSync(final, discarded);
        renameSync(temporary, final);
        rmSync(discarded, { recursive: true, force: true });
      }
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
  }

  /** Adds what `range` resolved to into the package's index (written whole, then renamed). */
  private record(name: string, range: string, resolution: Resolution): void {
    const file = this.store.indexFile(name);
    const ranges = { ...this.store.readIndex(name)?.ranges, [range]: { ...resolution, fetched: Date.now() } };
    const index: PackageIndex = { ranges };
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    writeFileSync(temporary, JSON.stringify(index));
    renameSync(temporary, file);
  }
}

/** Only what a registry serves: versions, ranges, tags, and `npm:` aliases of those. */
function registrySpec(name: string, range: string): npa.Result {
  const spec = npa.resolve(name, range);
  const target = spec.type === "alias" ? (spec as npa.AliasResult).subSpec : spec;
  if (!["version", "range", "tag"].includes(target.type ?? "")) {
    throw new Error(`"${range}" is not a registry version: auto-install takes versions, ranges, tags and npm: aliases`);
  }
  return spec;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function installAll(job: InstallJob): Promise<InstallResult> {
  const installer = new TreeInstaller(job);
  const failures: InstallResult["failures"][number][] = [];
  await Promise.all(
    job.requests.map((request) =>
      installer.install(request.name, request.range, request.refresh).catch((error: unknown) => {
        failures.push({ name: request.name, range: request.range, message: messageOf(error) });
      }),
    ),
  );
  return { failures };
}

/** How the program's thread and this one talk: a job comes in as a message; the answer goes out on `port`, then `signal` wakes the waiting thread. */
export interface InstallerChannel {
  readonly signal: Int32Array;
  readonly port: MessagePort;
}

const { signal, port } = workerData as InstallerChannel;
const answer = (result: InstallResult) => {
  port.postMessage(result);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
};
// Whatever happens, the waiting thread gets an answer.
process.on("uncaughtException", (error) => answer({ failures: [{ name: "", range: "", message: messageOf(error) }] }));
parentPort!.on("message", (job: InstallJob) => {
  installAll(job).then(answer, (error: unknown) => answer({ failures: [{ name: "", range: "", message: messageOf(error) }] }));
});
