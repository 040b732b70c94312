// rt's cache root, $XDG_CACHE_HOME/rt (else ~/.cache/rt): V8's code cache for rt's bundle and
// the modules it loads (v8/), the transpiler cache, the --rt node shim and auto-install's store.
// It is used only when it is this user's alone (see privateDirectory). The launcher (bin/rt.cjs)
// enables V8's cache before the CLI bundle loads, so the bundle benefits too, but only in a v8/
// that is private already: loading this check as a module of its own would cost every start
// ~0.3 ms. Node creates its own directories in v8/ 0755 (0777 under umask 0): v8/ is made 0700.
import { enableCompileCache } from "node:module";
import * as path from "node:path";
import { privateDirectory, untrustedWarning } from "../transpile/cache.js";
import { LOADER_VARIABLE } from "./variables.js";

/** Where the environment puts the cache root (bin/rt.cjs computes it the same way, from the environment only: os.tmpdir() & co cost a module load). */
export function cacheRootOf(env: NodeJS.ProcessEnv): string | undefined {
  const home = env.XDG_CACHE_HOME || (env.HOME && `${env.HOME}/.cache`);
  return home ? path.join(home, "rt") : undefined;
}

/**
 * `root` created 0700 with v8/ in it and V8's cache enabled there, or undefined when there is
 * none to use. Then a warning says why, unless rt started this process (its settings in the
 * environment): the parent has said it.
 */
export function openCacheRoot(root: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (!root) return undefined;
  const warn = (warning: string): undefined => {
    if (env[LOADER_VARIABLE] === undefined) process.stderr.write(warning);
    return undefined;
  };
  // Not under /proc or /sys: Node's recursive mkdir (enableCompileCache's too) loops there forever.
  const home = path.dirname(root);
  if (/^\/+(proc|sys)(\/|$)/.test(home)) return warn(`rt: warning: cache directory ${home} is on a pseudo file system; running uncached\n`);
  let problem: string | undefined;
  try {
    problem = privateDirectory(root) ?? privateDirectory(path.join(root, "v8"));
  } catch {
    // It cannot be created (a read-only or full disk, a file in the way): the transpiler cache
    // says so at its first write, as it does for a directory of its own.
    return root;
  }
  if (problem) return warn(untrustedWarning("cache directory", problem, "XDG_CACHE_HOME"));
  // Already enabled by the launcher when v8/ existed: then this changes nothing.
  enableCompileCache(path.join(root, "v8"));
  return root;
}
