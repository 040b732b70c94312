// V8's code cache for rt's own bundles (dist/cli.cjs), made after a run. Node's compile cache
// (module.enableCompileCache) serializes a module right after compiling it, before any function
// ran: the functions V8 compiles lazily while the CLI works (~15M instructions at every start)
// never enter it. Here the bundle is compiled as a vm.Script whose cache is made at the process's
// exit, and every later start reads it back: V8 then compiles none of those functions. Never
// earlier, on a timer: that would run rt's own code in the middle of the program (a debugger's
// Pause landing there steps through all of it), and a short run makes the cache anyway.
// A code cache is code: it is read only from a private directory of rt's cache root (v8/, which
// the launcher checks), as a DiskCache entry checked on read (length and checksum: V8 itself
// checks neither in release builds), under a key of the bundle file's identity and the Node that
// runs it. A miss, a bad entry or one V8 rejects (other V8 flags) runs as before and is rewritten
// by the next run that succeeds.
import { createRequire, Module } from "node:module";
import * as path from "node:path";
import { readFileSync, statSync } from "node:fs";
import { Script } from "node:vm";
import { DiskCache } from "../transpile/cache.js";
import { hashBytes } from "../transpile/hash.js";

/** Entries per bundle, Node and rt build: a few, kept under this bound (a cache is ~0.2-1 MB). */
const MAX_BYTES = 32 * 1024 * 1024;
/** One run in this many checks its cache at exit (making the data costs ~1 ms); RT_CODE_CACHE_REFRESH sets it. */
const REFRESH_ONE_IN = 16;
/** A cache this much larger than the entry replaces it: smaller differences are noise. */
const GROWTH = 1.02;

function refreshOneIn(): number {
  const given = Number(process.env.RT_CODE_CACHE_REFRESH);
  return Number.isInteger(given) && given > 0 ? given : REFRESH_ONE_IN;
}
// The bundle runs as Node runs a CommonJS module: in a function of these parameters, on a line of
// its own before the bundle's first (lineOffset -1), so positions in rt's own stack traces stay.
const WRAPPER_HEAD = "(function (exports, require, module, __filename, __dirname) {\n";
const WRAPPER_TAIL = "\n})";

type Wrapper = (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;

/**
 * Runs the CommonJS bundle `file` (an absolute path in rt's dist/) as require() would and returns
 * its exports, with V8's code cache from `v8Dir` (rt's private v8/ directory) when given. `use`
 * names what the bundle is loaded for: each has a cache of its own, of the functions it runs (the
 * launcher's CLI for a file or for another command, or rt-runtime/register's loader in the
 * processes and threads a program starts).
 */
export function requireBundle(file: string, v8Dir: string | undefined, use: "file" | "command" | "register"): unknown {
  const cache = v8Dir === undefined || process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : new DiskCache(path.join(v8Dir, "rt"), MAX_BYTES);
  const key = cache && hashBytes(Buffer.from(identity(file)), `rt bundle\0${use}`);
  const cachedData = key === undefined ? undefined : cache?.readBytes(key);
  const script = new Script(WRAPPER_HEAD + readFileSync(file, "utf8") + WRAPPER_TAIL, {
    filename: file,
    lineOffset: -1,
    cachedData,
  });
  const missing = cachedData === undefined || script.cachedDataRejected;
  if (cache && key && (missing || Math.random() * refreshOneIn() < 1)) {
    // Only a run that succeeded writes: a first run that failed early (a mistyped file name) would
    // leave every later run compiling what it never reached. A cache made by one kind of run (a
    // hello world) lacks what another needs (packages: CommonJS interop, package resolution), so
    // now and then a run checks whether it compiled more than its cache had: what it would write
    // holds the cache's functions and its own, and replaces the entry when it is larger.
    process.once("exit", (code) => {
      if (code !== 0) return;
      const data = script.createCachedData();
      if (!missing && data.length <= (cachedData?.length ?? 0) * GROWTH) return;
      cache.write(key, data);
      cache.pruneIfDue();
    });
  }
  const module = new Module(file);
  module.filename = file;
  const require = createRequire(file);
  require.cache[file] = module;
  (script.runInThisContext() as Wrapper).call(module.exports, module.exports, require, module, file, path.dirname(file));
  module.loaded = true;
  return module.exports;
}

/**
 * The bundle file as it is now and the Node that runs it. V8 checks a cache against the source's
 * length only; a file's change time moves at every write (npm gives all files one mtime), so
 * hashing its ~250 KB at every start is not needed to tell one build from another. Node's options
 * are in it too: V8 rejects a cache made under other V8 flags, and runs that alternate between two
 * sets of flags would otherwise rewrite one entry at every exit.
 */
function identity(file: string): string {
  const { dev, ino, size, mtimeNs, ctimeNs } = statSync(file, { bigint: true });
  const options = [...process.execArgv, process.env.NODE_OPTIONS ?? ""];
  return [process.version, process.arch, file, dev, ino, size, mtimeNs, ctimeNs, ...options].join("\0");
}
