// `rt build <entry...>`: the bundler. Takes the bundler flags, --watch, and the transpilation and
// resolution flags that `rt <file>` takes (so a bundle compiles as rt runs the sources).
// (The flags it takes are stated in COMMANDS.build, checked by assertFlagsFitCommand.)
import type { ParsedArgs } from "../../flags/parse.js";
import type { Invocation } from "../../register/prepare.js";
import { UsageError } from "../../errors.js";
import { bundle } from "../../build/bundle.js";

export function buildCommand(parsed: ParsedArgs, invocation: Invocation): Promise<void> {
  if (parsed.target === undefined) throw new UsageError("rt build needs at least one entry file: rt build ./src/index.ts --outdir dist");
  return bundle([parsed.target, ...parsed.args], invocation.values, invocation.cacheRoot);
}
