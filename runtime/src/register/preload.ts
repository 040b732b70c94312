// dist/register.cjs, the module behind `node --import rt-runtime/register` and the `--require` rt puts in
// NODE_OPTIONS for the processes and threads a program starts. It decides before loading rt's
// CLI bundle, so a process that is rt's own, or a thread some library started, pays ~nothing.
import { registerHooks } from "node:module";
import { realpathSync } from "node:fs";
import * as path from "node:path";
import { MIN_NODE } from "../launcher/node-version.js";
import { cacheRootOf, openCacheRoot } from "./cache-root.js";
import { LOADER_VARIABLE, THREAD_VARIABLE } from "./variables.js";

// Worker threads have no process.chdir of their own (Node puts a function marked `disabled`
// there); asking node:worker_threads would cost ~5 ms in every child process's main thread.
const inWorker = (process.chdir as { disabled?: boolean }).disabled === true;

function wanted(): boolean {
  if (typeof registerHooks !== "function") {
    // A Node older than rt needs that inherited NODE_OPTIONS (a program started another Node): left alone.
    if (process.env[LOADER_VARIABLE] !== undefined) return false;
    process.stderr.write(
      `rt-runtime/register: needs Node.js >= ${MIN_NODE} (module.registerHooks), but this is ${process.version} (${process.execPath}): ` +
        `install Node.js >= ${MIN_NODE}, or run the program with rt (npx rt app.ts), which brings its own Node.\n`,
    );
    process.exit(1);
  }
  // Threads of rt's Worker carry the marker; others (esbuild's service) keep Node as it is.
  if (inWorker) return process.env[THREAD_VARIABLE] === "1";
  // rt's launcher and rt's own processes (macro runner, secrets list) set themselves up.
  const main = process.argv[1];
  if (!main) return true;
  // rt's own programs are its bundles (dist/) and its launcher (bin/); sources of the runtime
  // package itself (its unit tests under src/) are programs like any other.
  const ownFolders = [__dirname, path.join(path.dirname(__dirname), "bin")].map((folder) => folder + path.sep);
  let file: string;
  try {
    file = realpathSync(main);
  } catch {
    file = path.resolve(main);
  }
  return !ownFolders.some((folder) => file.startsWith(folder));
}

if (wanted()) {
  // As the launcher does: rt's caches, and V8's code cache for rt's bundle and the modules it loads.
  const cacheRoot = openCacheRoot(cacheRootOf(process.env), process.env);
  // The CLI bundle (with V8's code cache, as the launcher loads it: dist/code-cache.cjs) re-exports
  // index.ts's registerLoader: typed from here, as the CLI stands on register/.
  const { requireBundle } = require(path.join(__dirname, "code-cache.cjs")) as typeof import("../launcher/code-cache.js");
  const cli = requireBundle(path.join(__dirname, "cli.cjs"), cacheRoot && path.join(cacheRoot, "v8"), "register") as typeof import("./index.js");
  cli.registerLoader(inWorker, cacheRoot);
}
