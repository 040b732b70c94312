// rt's cache root, $XDG_CACHE_HOME/rt (else ~/.cache/rt), for the launcher (bin/rt.cjs loads it
// as dist/cache-root.cjs) and rt/register. Computed from the environment only: os.tmpdir() & co
// cost a module load. It holds V8's code cache for rt's bundle and the modules it loads (v8/,
// enabled here, before the bundle loads, so the bundle benefits too), the transpiler cache, the
// --rt node shim and auto-install's store. Used only when it is this user's alone (see
// privateDirectory): Node creates its own directories in v8/ 0755, so v8/ is made 0700 first.
import { enableCompileCache } from "node:module";
import { privateDirectory, untrustedWarning } from "../transpile/cache.js";
import { LOADER_VARIABLE } from "./variables.js";

/**
 * The cache root, or undefined when there is none to use. Then a warning says why, unless rt
 * started this process (its settings in the environment): the parent has said it.
 */
export function openCacheRoot(env: NodeJS.ProcessEnv): string | undefined {
  const home = env.XDG_CACHE_HOME || (env.HOME && `${env.HOME}/.cache`);
  if (!home) return undefined;
  const warn = (warning: string): undefined => {
    if (env[LOADER_VARIABLE] === undefined) process.stderr.write(warning);
    return undefined;
  };
  // Not under /proc or /sys: Node's recursive mkdir (enableCompileCache's too) loops there forever.
  if (/^\/+(proc|sys)(\/|$)/.test(home)) return warn(`rt: warning: cache directory ${home} is on a pseudo file system; running uncached\n`);
  const root = `${home}/rt`;
  let problem: string | undefined;
  try {
    problem = privateDirectory(root) ?? privateDirectory(`${root}/v8`);
  } catch {
    // It cannot be created (a read-only or full disk, a file in the way): the transpiler cache
    // says so at its first write, as it does for a directory of its own.
    return root;
  }
  if (problem) return warn(untrustedWarning("cache directory", problem, "XDG_CACHE_HOME"));
  enableCompileCache(`${root}/v8`);
  return root;
}
