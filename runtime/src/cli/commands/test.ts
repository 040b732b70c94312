// `rt --test`: Node's test runner with rt's loader, as `tsx --test`. Node itself starts in place
// of rt (one process: its exit code is the runner's), the register module preloaded through
// NODE_OPTIONS in the runner and in every test file's process, rt's flags passed down as to any
// child process; the --test-* flags are Node's, handed over as they are.
import { statSync } from "node:fs";
import * as path from "node:path";
import { UsageError } from "../../errors.js";
import { display, flagValue, type ParsedArgs } from "../../flags/parse.js";
import { FLAGS, flagByName, type FlagName } from "../../flags/table.js";
import { replaceProcess } from "../../process/replace.js";
import { inheritedSettings, passToChildProcesses } from "../../register/inherit.js";
import type { Invocation } from "../../register/prepare.js";
import { loadTsconfig } from "../../transpile/tsconfig.js";

/**
 * Node's default test files (`test`, `test/**`, `test-*`, `*.test`, `*-test`, `*_test`) with every
 * extension rt runs: Node matches .ts/.mts/.cts only with type stripping on (not by default in
 * Node 22), .tsx and .jsx never. Node's glob leaves node_modules out.
 */
const TEST_FILES = "**/{test,test/**/*,test-*,*[._-]test}.{js,mjs,cjs,jsx,ts,mts,cts,tsx}";

/** Flags that act in rt's own process or choose something else to run: the runner's processes are Node's. */
const NOT_WITH_TEST: readonly FlagName[] = ["eval", "print", "hot", "inspect", "inspect-wait", "inspect-brk", "filter", "workspaces", "parallel", "sequential"];

/** The --test-* flags need --test; --test refuses what it cannot honour. */
export function assertTestFlags(parsed: ParsedArgs): void {
  const testing = parsed.values.test === true;
  for (const name of parsed.given) {
    const flag = flagByName(name)!;
    if (!testing && flag.group === "test") throw new UsageError(`${display(flag)} applies to Node's test runner: add --test (rt --test ${display(flag)} ...)`);
    if (testing && (NOT_WITH_TEST as readonly string[]).includes(name))
      throw new UsageError(`${display(flag)} does not apply to rt --test: the test files run in processes of Node's test runner`);
  }
}

/** Runs Node's test runner on `patterns` (globs or files; a directory: its test files; none: the working directory's). */
export function runTests(patterns: readonly string[], { values, cacheRoot }: Invocation): void {
  // A mistake in the file every test process would read is reported once, here.
  if (values["tsconfig-override"] !== undefined) loadTsconfig(process.cwd(), values["tsconfig-override"]);
  const options: string[] = [];
  for (const flag of FLAGS) {
    const value = flag.group === "test" && flag.name !== "test" ? flagValue(values, flag.name) : undefined;
    if (value === true) options.push(`--${flag.name}`);
    else if (Array.isArray(value)) for (const item of value) options.push(`--${flag.name}=${item}`);
    else if (value !== undefined && value !== false) options.push(`--${flag.name}=${value}`);
  }
  // Node's runner reruns the files a change touches; rt's supervisor stays out (main.ts).
  if (values.watch === true) options.push("--watch");
  // Coverage counts the lines of files as written through their source maps (Node maps only with
  // its source-map support on): else a transpiled file's offsets are counted against its source's lines.
  if (values["experimental-test-coverage"] === true) options.push("--enable-source-maps", ...coverageExcludes(values["test-coverage-exclude"]));
  for (const preload of values.preload ?? []) options.push(`--import=${preload}`);
  passToChildProcesses(inheritedSettings(values, cacheRoot));
  replaceProcess([process.execPath, ...process.execArgv, "--test", ...options, ...testPatterns(patterns)]);
}

/**
 * rt's own bundles run in every test process, and Node leaves out only node_modules: from a
 * checkout or the extension's copy they would fill the report. Node stops leaving out the test
 * files once any exclude is given, so without the user's own they are named too.
 */
function coverageExcludes(given: readonly string[] | undefined): string[] {
  const own = `--test-coverage-exclude=${path.join(__dirname, "**").replaceAll("\\", "/")}`;
  return given?.length ? [own] : [own, `--test-coverage-exclude=${TEST_FILES}`];
}

function testPatterns(patterns: readonly string[]): string[] {
  if (patterns.length === 0) return [TEST_FILES];
  return patterns.map((pattern) =>
    statSync(pattern, { throwIfNoEntry: false })?.isDirectory() ? path.posix.join(pattern.replaceAll("\\", "/"), TEST_FILES) : pattern,
  );
}
