// `rt build <entry...>`: the bundler. Takes the bundler flags, --watch, and the transpilation and
// resolution flags that `rt <file>` takes (so a bundle compiles as rt runs the sources).
import { flagByName, type FlagGroup } from "../flags.js";
import { display, type ParsedArgs } from "../parse.js";
import type { Invocation } from "../prepare.js";
import { UsageError } from "../../errors.js";
import { bundle } from "../../build/bundle.js";

const BUILD_GROUPS = new Set<FlagGroup>(["build", "transpilation", "resolution", "config"]);
const BUILD_FLAGS = new Set(["watch", "no-clear-screen"]);

export function buildCommand(parsed: ParsedArgs, invocation: Invocation): Promise<void> {
  for (const name of parsed.given) {
    const flag = flagByName(name)!;
    if (!BUILD_GROUPS.has(flag.group) && !BUILD_FLAGS.has(name)) throw new UsageError(`${display(flag)} does not apply to rt build (it is a flag for running programs)`);
  }
  if (parsed.target === undefined) throw new UsageError("rt build needs at least one entry file: rt build ./src/index.ts --outdir dist");
  return bundle([parsed.target, ...parsed.args], invocation.values, invocation.cacheRoot);
}
