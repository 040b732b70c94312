// dist/node-shim.cjs: what `node` runs in scripts under --rt (the shim on PATH starts it). A
// command line rt understands runs on rt's CLI, as `rt <args>`; one that asks for what only Node
// does (`node --test`, `--check`, `--no-warnings`, a V8 option, `-v` for Node's version) runs on
// Node itself with rt's loader registered, so Node's own flags pass through and TypeScript still
// runs on rt (in the test files `node --test` starts too: they inherit the --require).
import * as path from "node:path";
import { scanArgs } from "../flags/parse.js";
import { replaceProcess } from "../process/replace.js";
import { registerOption } from "../register/inherit.js";

/**
 * Flags whose short form means something else to Node: `-v` (Node's version), `-c` (--check)
 * and `-i` (the REPL) are Node's here; rt's long forms stay rt's.
 */
const NODE_MEANING = new Set(["-v", "--version", "-c", "-i"]);

/** Node reads `-pe <code>` as -p -e; rt's parser would take "e" for -p's value. */
const NODE_CLUSTERS = new Set(["-pe", "-ep"]);

/** Whether Node itself must run this command line (a flag rt does not know, or one that means Node's). */
export function needsNode(args: readonly string[]): boolean {
  for (const arg of scanArgs(args)) {
    if (NODE_CLUSTERS.has(args[arg.index] ?? "")) return true;
    if (arg.kind === "command" || arg.kind === "rest") return false;
    if (arg.kind === "flag" && (!arg.flag || NODE_MEANING.has(arg.shown))) return true;
  }
  return false;
}

const args = process.argv.slice(2);
if (needsNode(args)) {
  replaceProcess([process.execPath, registerOption(), ...args]);
} else {
  require(path.join(__dirname, "..", "bin", "rt.cjs"));
}
