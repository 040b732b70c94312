// Content-addressed on-disk cache of transpiled modules. The key covers the source, rt's
// version and every output-changing option, so entries never go stale; writes are atomic
// (temp file + rename) so concurrent rt processes can share one directory. A cache that cannot
// be written (a file where a directory should be, /proc, a full or read-only disk) only costs
// speed: one warning, then the process runs uncached.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import * as path from "node:path";

export type ModuleFormat = "module" | "commonjs";

export interface CachedModule {
  readonly format: ModuleFormat;
  readonly code: string;
}

export const CACHE_DIR_ENV = "RT_TRANSPILER_CACHE_PATH";
export const CACHE_MAX_BYTES_ENV = "RT_TRANSPILER_CACHE_MAX_BYTES";
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;
const PRUNE_MARKER = ".last-prune";

export class TranspileCache {
  private wrote = false;
  /** Set after the first failed write: no more attempts (and no more warnings) in this process. */
  private unusable = false;

  constructor(
    readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /**
   * The cache at `RT_TRANSPILER_CACHE_PATH`, else `<cacheRoot>/transpiler`; undefined when the
   * variable is "" or "0" (disabled) or there is no place for it.
   */
  static fromEnvironment(env: NodeJS.ProcessEnv, cacheRoot: string | undefined): TranspileCache | undefined {
    const configured = env[CACHE_DIR_ENV];
    if (configured === "" || configured === "0") return undefined;
    const dir = configured ?? (cacheRoot && path.join(cacheRoot, "transpiler"));
    if (!dir) return undefined;
    const max = Number(env[CACHE_MAX_BYTES_ENV]);
    return new TranspileCache(path.resolve(dir), Number.isFinite(max) && max > 0 ? max : DEFAULT_MAX_BYTES);
  }

  get(key: string): CachedModule | undefined {
    let text: string;
    try {
      text = readFileSync(this.entryPath(key), "utf8");
    } catch {
      return undefined;
    }
    const newline = text.indexOf("\n");
    const format = text.slice(0, newline);
    if (format !== "module" && format !== "commonjs") return undefined;
    return { format, code: text.slice(newline + 1) };
  }

  set(key: string, entry: CachedModule): void {
    if (this.unusable) return;
    const file = this.entryPath(key);
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      makeDirectory(path.dirname(file));
      writeFileSync(temp, `${entry.format}\n${entry.code}`);
      renameSync(temp, file);
      this.wrote = true;
    } catch (error) {
      this.unusable = true;
      try {
        rmSync(temp, { force: true });
      } catch {
        // the temp file was never created (ENOTDIR, EACCES ...): nothing to clean
      }
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      process.stderr.write(
        `rt: warning: transpiler cache ${this.dir} is unusable (${reason}); running uncached (${CACHE_DIR_ENV}=0 runs uncached without this warning)\n`,
      );
    }
  }

  /** After writing, at most every few minutes: delete the oldest entries while the cache is over its size. */
  pruneIfDue(now = Date.now()): void {
    if (!this.wrote) return;
    const marker = path.join(this.dir, PRUNE_MARKER);
    try {
      if (now - statSync(marker).mtimeMs < PRUNE_INTERVAL_MS) return;
    } catch {
      // no marker yet: prune now
    }
    try {
      writeFileSync(marker, "");
      utimesSync(marker, now / 1000, now / 1000);
      this.prune();
    } catch {
      // pruning is best effort
    }
  }

  private prune(): void {
    const entries: { file: string; size: number; mtime: number }[] = [];
    let total = 0;
    for (const shard of readdirSync(this.dir)) {
      if (shard === PRUNE_MARKER) continue;
      const shardDir = path.join(this.dir, shard);
      for (const name of readdirSync(shardDir)) {
        const file = path.join(shardDir, name);
        const stat = statSync(file, { throwIfNoEntry: false });
        if (!stat) continue;
        entries.push({ file, size: stat.size, mtime: stat.mtimeMs });
        total += stat.size;
      }
    }
    if (total <= this.maxBytes) return;
    entries.sort((a, b) => a.mtime - b.mtime);
    const target = this.maxBytes * 0.8;
    for (const entry of entries) {
      if (total <= target) break;
      rmSync(entry.file, { force: true });
      total -= entry.size;
    }
  }

  private entryPath(key: string): string {
    return path.join(this.dir, key.slice(0, 2), key.slice(2));
  }
}

/**
 * `mkdir -p`, one level at a time. Node's recursive mkdirSync never returns where a pseudo
 * file system refuses every new entry with ENOENT (under /proc it loops at 100% CPU); here that
 * ENOENT, or ENOTDIR under a file, is thrown like any other failure.
 */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let current = dir; !statSync(current, { throwIfNoEntry: false }); current = path.dirname(current)) {
    missing.push(current);
    if (path.dirname(current) === current) break;
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level);
    } catch (error) {
      // another rt process made it first
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}
