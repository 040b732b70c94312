// `rt -e <code>`, `rt -p <code>` and `rt run -` (code from stdin): TypeScript with JSX,
// run as a module named `<cwd>/[eval]` or `<cwd>/[stdin]`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { constants, runInThisContext } from "node:vm";
import { runEntry } from "../entry.js";
import type { FlagValues } from "../parse.js";
import { prepareRuntime } from "../prepare.js";

export async function evalCode(code: string, args: readonly string[], values: FlagValues): Promise<void> {
  await runInline("[eval]", code, [process.execPath, ...args], values);
}

export async function runStdin(args: readonly string[], values: FlagValues): Promise<void> {
  await runInline("[stdin]", readFileSync(0, "utf8"), [process.execPath, "-", ...args], values);
}

async function runInline(name: string, code: string, argv: string[], values: FlagValues): Promise<void> {
  const file = path.join(process.cwd(), name);
  const { loader } = prepareRuntime(values, file);
  loader.addVirtualModule(file, code);
  loader.markEntry(file, true);
  process.argv = argv;
  await runEntry(loader, file);
}

/** Evaluates `code` as a script and prints its completion value like console.log, awaiting a promise. */
export async function printCode(code: string, args: readonly string[], values: FlagValues): Promise<void> {
  const file = path.join(process.cwd(), "[eval]");
  const { loader } = prepareRuntime(values, file);
  loader.addVirtualModule(file, code);
  process.argv = [process.execPath, ...args];
  // As in `node -p`, the script sees CommonJS-style globals.
  const globals = globalThis as Record<string, unknown>;
  globals.require = createRequire(file);
  globals.__filename = file;
  globals.__dirname = path.dirname(file);
  let result: unknown = runInThisContext(loader.transpiledSource(file), {
    filename: file,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (result !== null && typeof (result as PromiseLike<unknown>)?.then === "function") result = await result;
  console.log(result);
}
