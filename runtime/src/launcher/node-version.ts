// Which Node rt runs on. bin/rt.cjs checks MIN_NODE itself (it loads nothing before the check).
import * as path from "node:path";

/** The oldest Node rt runs on: module.registerHooks and process.execve arrived in 22.15. */
export const MIN_NODE = "22.15";

/** The major version of the Node rt fetches for itself when the machine's is older than MIN_NODE (the active LTS). */
export const OWN_NODE_MAJOR = 24;

/** Where rt keeps its own Node: one per major version, in rt's cache root. */
export function ownNodeDir(cacheRoot: string): string {
  return path.join(cacheRoot, "node", `v${OWN_NODE_MAJOR}`);
}

/** The Node running rt, for `rt --version`: rt's own, or the one the machine (or project) has. */
export function runningNode(cacheRoot: string | undefined): string {
  const own = cacheRoot !== undefined && path.dirname(process.execPath) === ownNodeDir(cacheRoot);
  return `${own ? "rt's own " : ""}Node.js ${process.version} at ${process.execPath}`;
}
