// `rt -e <code>`, `rt -p <code>` and `rt run -` (code from stdin): TypeScript with JSX,
// run as a module named `<cwd>/[eval]` or `<cwd>/[stdin]`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { UsageError } from "../../errors.js";
import { afterPreloads, runEntry } from "../entry.js";
import { prepareRuntime, type Invocation } from "../../register/prepare.js";

export function evalCode(code: string, invocation: Invocation): Promise<void> {
  return runInline("[eval]", code, [process.execPath, ...invocation.args], invocation);
}

export function runStdin(invocation: Invocation): Promise<void> {
  return runInline("[stdin]", readFileSync(0, "utf8"), [process.execPath, "-", ...invocation.args], invocation);
}

// These return the entry's promise instead of awaiting it: see runEntry.
function runInline(name: string, code: string, argv: string[], invocation: Invocation): Promise<void> {
  refuseHot(invocation);
  const file = path.join(process.cwd(), name);
  const { loader } = prepareRuntime(invocation, () => file);
  loader.addVirtualModule(file, code);
  loader.markEntry(file);
  process.argv = argv;
  return afterPreloads(loader, invocation.values.preload, () => runEntry(loader, file));
}

/** Evaluates `code` as a script and prints its completion value like console.log, awaiting a promise. */
export function printCode(code: string, invocation: Invocation): Promise<void> {
  refuseHot(invocation);
  const file = path.join(process.cwd(), "[eval]");
  const { loader } = prepareRuntime(invocation, () => file);
  loader.addVirtualModule(file, code);
  process.argv = [process.execPath, ...invocation.args];
  // As in `node -p`, the script sees CommonJS-style globals.
  const globals = globalThis as Record<string, unknown>;
  globals.require = createRequire(file);
  globals.__filename = file;
  globals.__dirname = path.dirname(file);
  return afterPreloads(loader, invocation.values.preload, () => {
    const { constants, runInThisContext } = require("node:vm") as typeof import("node:vm");
    const result: unknown = runInThisContext(loader.transpiledSource(file), {
      filename: file,
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    // As console.log would show it; a promise is awaited first.
    return Promise.resolve(result).then((value) => console.log(value));
  });
}

/** --hot re-executes the modules of a file; inline code has none to edit. */
function refuseHot({ values }: Invocation): void {
  if (values.hot === true)
    throw new UsageError("--hot reloads the modules of a file: give a file to run, not --eval, --print or stdin (--watch works with them)");
}
