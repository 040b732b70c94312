// Content-addressed on-disk caches: the transpiler's here (transpiled modules, and beside them
// what cjs-module-lexer finds in CommonJS sources), and the rules every cache under rt's cache
// root follows (DiskCache, privateDirectory).
// - Only this user may change what rt will run: directories are created 0700 and entries 0600
//   whatever the umask, and a directory that another user owns or may write to is not used (one
//   warning, then the process runs uncached), as pip does. Otherwise a user who creates the cache
//   directory first (HOME=/tmp in a service, a shared XDG_CACHE_HOME) could plant code.
// - An entry is checked before use: a header with its length and a checksum seeded with its key,
//   so a truncated, garbled or misplaced entry is a miss (transpiled again and rewritten).
// - Writes are atomic (temp file + rename) so concurrent rt processes can share one directory. A
//   cache that cannot be written (a file where a directory should be, /proc, a full or read-only
//   disk) only costs speed: one warning, then the process runs uncached.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, type Stats, statSync, utimesSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { INLINE_MAP, MAP_COMMENT_START, pathReference } from "../diagnostics/source-maps.js";
import { hashBytes } from "./hash.js";

export type ModuleFormat = "module" | "commonjs";

export interface CachedModule {
  readonly format: ModuleFormat;
  readonly code: string;
}

/** What cjs-module-lexer finds in a CommonJS source: the names it exports and the specifiers it reexports. */
export interface LexedCommonJs {
  readonly exports: readonly string[];
  readonly reexports: readonly string[];
}

export const CACHE_DIR_ENV = "RT_TRANSPILER_CACHE_PATH";
export const CACHE_MAX_BYTES_ENV = "RT_TRANSPILER_CACHE_MAX_BYTES";
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;
const PRUNE_MARKER = ".last-prune";
/** A transpiled module's entry whose source map is a file beside it: `<format> map-beside` on its first line. */
const MAP_BESIDE = "map-beside";
const MAP_SUFFIX = ".map";
/** The first line of a lexer entry (a transpiled module's is its format). */
const LEXED = "cjs-module-lexer\n";
// An entry's header, `<checksum: 16 hex digits> <length: 18 digits>\n`: 36 bytes, a multiple of 4,
// so the text after it can be hashed in place (see hashBytes).
const HEADER_BYTES = 36;

/**
 * Why another user could change what is in `dir` (someone else owns it, or others may write to
 * it), or undefined when only this user (and root) can. Windows has ACLs, not these modes: no check.
 */
function distrust(dir: string, stats: Stats): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  if (stats.uid !== uid) return `${dir} is owned by uid ${stats.uid}, not by you (uid ${uid})`;
  if (stats.mode & 0o022) return `${dir} is writable by others (mode ${(stats.mode & 0o777).toString(8).padStart(4, "0")})`;
  return undefined;
}

/** The warning for a directory that is not this user's alone; `variable` names another place. */
export function untrustedWarning(what: string, problem: string, variable: string): string {
  return `rt: warning: ${what} ${problem}; running uncached (remove it, or set ${variable} to a directory of your own)\n`;
}

/**
 * Creates `dir` and its missing parents 0700, whatever the umask. Returns why it cannot be
 * trusted (see distrust) when it is not this user's alone; throws when it cannot be created.
 */
export function privateDirectory(dir: string): string | undefined {
  const stats = statSync(dir, { throwIfNoEntry: false });
  if (stats) return distrust(dir, stats);
  makeDirectory(dir);
  // Another process may have created it between the two calls.
  return distrust(dir, statSync(dir));
}

/**
 * Entries keyed by a hash, in shards `<dir>/<first two digits>/<rest>`: checked on read (length,
 * checksum, the directories' owner and modes), written atomically 0600, pruned to a size bound.
 * `warnings` makes its warnings: its name and the variable that names its directory (0 turning
 * it off); without it, a cache that cannot be used is left alone silently.
 */
export class DiskCache {
  private wrote = false;
  /** Set when a directory is not this user's alone or a write failed: no more reads, writes or warnings in this process. */
  private unusable = false;
  /** The cache's directory and shards found private to this user (or created so). */
  private readonly trusted = new Set<string>();

  constructor(
    readonly dir: string,
    private readonly maxBytes: number,
    private readonly warnings?: { readonly name: string; readonly variable: string },
  ) {}

  /** The text stored under `key`, or undefined (a miss) when there is none or it fails its checks. */
  read(key: string): string | undefined {
    return this.readBytes(key)?.toString("utf8");
  }

  /** The bytes stored under `key`, or undefined (a miss) when there is none or they fail their checks. */
  readBytes(key: string): Buffer | undefined {
    const file = this.entryPath(key);
    if (!this.present(this.dir) || !this.present(path.dirname(file))) return undefined;
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return undefined;
    }
    const [checksum, length] = bytes.toString("latin1", 0, HEADER_BYTES - 1).split(" ");
    const body = bytes.subarray(HEADER_BYTES);
    if (bytes[HEADER_BYTES - 1] !== 10 || Number(length) !== body.length || hashBytes(body, key) !== checksum) return undefined;
    return body;
  }

  write(key: string, content: string | Uint8Array): void {
    const body = typeof content === "string" ? Buffer.from(content) : content;
    const header = `${hashBytes(body, key)} ${String(body.length).padStart(18, "0")}\n`;
    this.writeFile(this.entryPath(key), Buffer.concat([Buffer.from(header), body]));
  }

  /**
   * A file beside the entry under `key`, read by other programs than rt (a source map that
   * debuggers and coverage tools load): plain content, no header. Pruned with its entry. Returns
   * its path, or undefined when it could not be written.
   */
  writeBeside(key: string, suffix: string, content: string): string | undefined {
    const file = this.besidePath(key, suffix);
    return this.writeFile(file, Buffer.from(content)) ? file : undefined;
  }

  besidePath(key: string, suffix: string): string {
    return this.entryPath(key) + suffix;
  }

  /** Writes `file` of this cache atomically, 0600; false (and the cache given up) when it cannot. */
  private writeFile(file: string, bytes: Uint8Array): boolean {
    if (this.unusable) return false;
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      if (!this.ensurePrivate(this.dir) || !this.ensurePrivate(path.dirname(file))) return false;
      // "wx": a new file, never one already there. The mode passes through the umask: chmod makes it 0600.
      writeFileSync(temp, bytes, { mode: 0o600, flag: "wx" });
      chmodSync(temp, 0o600);
      renameSync(temp, file);
      this.wrote = true;
      return true;
    } catch (error) {
      try {
        rmSync(temp, { force: true });
      } catch {
        // the temp file was never created (ENOTDIR, EACCES ...): nothing to clean
      }
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      const warnings = this.warnings;
      this.giveUp(
        warnings &&
          `rt: warning: ${warnings.name} ${this.dir} is unusable (${reason}); running uncached (${warnings.variable}=0 runs uncached without this warning)\n`,
      );
      return false;
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
      writeFileSync(marker, "", { mode: 0o600 });
      utimesSync(marker, now / 1000, now / 1000);
      this.prune();
    } catch {
      // pruning is best effort
    }
  }

  private prune(): void {
    // A file beside an entry (`<entry>.<suffix>`) counts with its entry and goes with it.
    const entries = new Map<string, { files: string[]; size: number; mtime: number }>();
    let total = 0;
    for (const shard of readdirSync(this.dir)) {
      if (shard === PRUNE_MARKER) continue;
      const shardDir = path.join(this.dir, shard);
      for (const name of readdirSync(shardDir)) {
        const file = path.join(shardDir, name);
        const stat = statSync(file, { throwIfNoEntry: false });
        if (!stat) continue;
        const entryFile = path.join(shardDir, name.split(".")[0]!);
        let entry = entries.get(entryFile);
        if (!entry) entries.set(entryFile, (entry = { files: [], size: 0, mtime: stat.mtimeMs }));
        entry.files.push(file);
        entry.size += stat.size;
        entry.mtime = Math.min(entry.mtime, stat.mtimeMs);
        total += stat.size;
      }
    }
    if (total <= this.maxBytes) return;
    const target = this.maxBytes * 0.8;
    for (const entry of [...entries.values()].sort((a, b) => a.mtime - b.mtime)) {
      if (total <= target) break;
      // The entry first: an entry whose map is gone would name a missing file.
      for (const file of entry.files.sort()) rmSync(file, { force: true });
      total -= entry.size;
    }
  }

  /** Whether `dir` exists and may be read from: one stat per directory and process. */
  private present(dir: string): boolean {
    if (this.unusable) return false;
    if (this.trusted.has(dir)) return true;
    const stats = statSync(dir, { throwIfNoEntry: false });
    if (!stats) return false;
    return this.trust(dir, distrust(dir, stats));
  }

  /** Whether `dir` exists (created 0700 if need be) and may be written to; throws when it cannot be created. */
  private ensurePrivate(dir: string): boolean {
    return this.trusted.has(dir) || this.trust(dir, privateDirectory(dir));
  }

  private trust(dir: string, problem: string | undefined): boolean {
    if (problem === undefined) {
      this.trusted.add(dir);
      return true;
    }
    this.giveUp(this.warnings && untrustedWarning(this.warnings.name, problem, this.warnings.variable));
    return false;
  }

  private giveUp(warning: string | undefined): void {
    this.unusable = true;
    if (warning) process.stderr.write(warning);
  }

  private entryPath(key: string): string {
    return path.join(this.dir, key.slice(0, 2), key.slice(2));
  }
}

/** `code` naming the map file `map` (see pathReference). */
function withMapComment(code: string, map: string): string {
  return `${code}${MAP_COMMENT_START}${pathReference(map)}\n`;
}

/**
 * The transpiler's cache: a module's format and code under a key of its source and options, and
 * beside them (same directory, checks and size bound) cjs-module-lexer's findings under a key of
 * the lexed source, which spare a warm start the lexer's WebAssembly and its pass over the text.
 */
export class TranspileCache {
  private constructor(private readonly store: DiskCache) {}

  get directory(): string {
    return this.store.dir;
  }

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
    const bound = Number.isFinite(max) && max > 0 ? max : DEFAULT_MAX_BYTES;
    return new TranspileCache(new DiskCache(path.resolve(dir), bound, { name: "transpiler cache", variable: CACHE_DIR_ENV }));
  }

  get(key: string): CachedModule | undefined {
    const text = this.store.read(key);
    if (text === undefined) return undefined;
    const newline = text.indexOf("\n");
    const [format, layout] = text.slice(0, newline).split(" ");
    if (format !== "module" && format !== "commonjs") return undefined;
    const code = text.slice(newline + 1);
    if (layout === undefined) return { format, code };
    // The map beside it, which debuggers and coverage tools read: without it, a miss.
    const map = this.store.besidePath(key, MAP_SUFFIX);
    if (layout !== MAP_BESIDE || !existsSync(map)) return undefined;
    return { format, code: withMapComment(code, map) };
  }

  /**
   * Stores `entry` under `key` and returns the module as a hit will return it. With `mapBesideFor`
   * (the file's path: the entry is that file's alone), its inline source map is written beside the
   * entry as a file and the code names it: V8 keeps a script's `sourceMappingURL` in its heap and
   * code cache, and a large file's inline map is several times its code (a 5,000-line module:
   * 470 KB of text, 106 KB of code), read, hashed and deserialized at every start. The map's
   * source becomes the file's URL, as it is not beside the file.
   */
  set(key: string, entry: CachedModule, mapBesideFor?: string): CachedModule {
    const at = mapBesideFor === undefined ? -1 : entry.code.lastIndexOf(INLINE_MAP);
    if (mapBesideFor !== undefined && at !== -1) {
      const code = entry.code.slice(0, at);
      const map = JSON.parse(Buffer.from(entry.code.slice(at + INLINE_MAP.length), "base64").toString("utf8")) as { sources?: string[] };
      map.sources = [pathToFileURL(mapBesideFor).href];
      const mapFile = this.store.writeBeside(key, MAP_SUFFIX, JSON.stringify(map));
      if (mapFile !== undefined) {
        this.store.write(key, `${entry.format} ${MAP_BESIDE}\n${code}`);
        return { format: entry.format, code: withMapComment(code, mapFile) };
      }
    }
    this.store.write(key, `${entry.format}\n${entry.code}`);
    return entry;
  }

  /** The lexer's findings stored under `key`: null when it could not read that source, undefined on a miss. */
  getLexed(key: string): LexedCommonJs | null | undefined {
    const text = this.store.read(key);
    if (text?.startsWith(LEXED) !== true) return undefined;
    try {
      const value = JSON.parse(text.slice(LEXED.length)) as LexedCommonJs | null;
      return value === null || (Array.isArray(value.exports) && Array.isArray(value.reexports)) ? value : undefined;
    } catch {
      return undefined; // written by another layout of this entry: a miss, rewritten
    }
  }

  setLexed(key: string, lexed: LexedCommonJs | null): void {
    // JSON: an export name may hold a lone surrogate, which UTF-8 cannot carry (JSON escapes it).
    this.store.write(key, LEXED + JSON.stringify(lexed && { exports: lexed.exports, reexports: lexed.reexports }));
  }

  pruneIfDue(now?: number): void {
    this.store.pruneIfDue(now);
  }
}

/**
 * `mkdir -p` with mode 0700, one level at a time. Node's recursive mkdirSync never returns where
 * a pseudo file system refuses every new entry with ENOENT (under /proc it loops at 100% CPU);
 * here that ENOENT, or ENOTDIR under a file, is thrown like any other failure.
 */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let current = dir; !statSync(current, { throwIfNoEntry: false }); current = path.dirname(current)) {
    missing.push(current);
    if (path.dirname(current) === current) break;
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level, { mode: 0o700 });
      // mkdir's mode passes through the umask: a umask that takes the owner's bits would leave less.
      chmodSync(level, 0o700);
    } catch (error) {
      // another rt process made it first
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}
