// rt's loader in a thread or process that rt's CLI did not start: `node --import rt-runtime/register
// app.ts` (as `node --import tsx`), a test runner's `--require rt-runtime/register`, and every Node child process
// and worker of a program rt runs (see inherit.ts). The thread then runs TypeScript, JSX, rt's
// resolution and tsconfig, and the `rt` namespace as under `rt app.ts`.
import * as path from "node:path";
import { withConfig } from "../config/rtfig.js";
import { prepareRuntime } from "./prepare.js";
import { ProgramError, UsageError } from "../errors.js";
import { readInheritedSettings } from "./inherit.js";
import { THREAD_VARIABLE } from "./variables.js";

const REGISTERED = Symbol.for("rt.register");

/**
 * Registers rt's loader in this thread (once); `inWorker` as the preload found it, `cacheRoot`
 * rt's cache directory unless the parent passed its own.
 */
export function registerLoader(inWorker: boolean, cacheRoot: string | undefined): void {
  const global = globalThis as { [REGISTERED]?: true };
  if (global[REGISTERED]) return;
  global[REGISTERED] = true;
  // The marker is this worker's alone: the processes it starts are main threads again.
  if (inWorker) delete process.env[THREAD_VARIABLE];
  const inherited = readInheritedSettings(process.env);
  try {
    const values = withConfig(inherited.flags);
    // process.argv[1]: the main module Node is about to load (the worker's file in a worker);
    // none for `node --test`, `node -e` or an eval worker.
    const main = process.argv[1];
    const { loader, entry } = prepareRuntime(
      { values, args: [], cacheRoot: inherited.cacheRoot ?? cacheRoot },
      (resolver) => (main ? (resolver.resolvePath(path.resolve(main), false) ?? path.resolve(main)) : path.join(process.cwd(), "[eval]")),
      inWorker,
    );
    if (main && !inWorker) loader.markEntry(entry);
  } catch (error) {
    // A mistake in rtfig.toml or a flag: said as rt says it, not as a stack from inside rt.
    if (!(error instanceof UsageError || error instanceof ProgramError)) throw error;
    process.stderr.write(error instanceof UsageError ? `rt: ${error.message}\n` : error.display);
    process.exit(error.exitCode);
  }
}
