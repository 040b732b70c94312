// rt's command line: parse argv with the flag table, then hand over to one command module.
import type { Worker } from "node:worker_threads";
import { ProgramError, UsageError } from "../errors.js";
import { buildCommand } from "./commands/build.js";
import { evalCode, printCode, runStdin } from "./commands/eval.js";
import { runFile } from "./commands/run-file.js";
import { isScriptCommand, runScripts, runTarget } from "./commands/run-script.js";
import { resolveRunTarget } from "../run/target.js";
import { secretsCommand } from "./commands/secrets.js";
import { assertTestFlags, runTests } from "./commands/test.js";
import { helpText } from "./help.js";
import { loadEnvFiles } from "../config/env-files.js";
import { bootInspectorThread, inspectorFlag } from "../inspector/start.js";
import { withConfig } from "../config/rtfig.js";
import { changeDirectory } from "../process/cwd.js";
import { applyStartupOptions } from "../process/startup-options.js";
import { runningNode } from "../launcher/node-version.js";
import { isWatchChild } from "../watch/report.js";
import { superviseWatch } from "../watch/supervisor.js";
import { openCacheRoot } from "../register/cache-root.js";
import type { Invocation } from "../register/prepare.js";
import { type ImportUrl, lendImport } from "../loader/import-url.js";
import { assertFlagsFitCommand, parseArgs, type ParsedArgs } from "../flags/parse.js";

declare const RT_VERSION: string;

// For dist/register.cjs (`node --import rt-runtime/register`), which loads this bundle.
export { registerLoader } from "../register/index.js";

/**
 * Called by the launcher (bin/rt.cjs) with rt's arguments, the directory for its caches (used
 * once checked: openCacheRoot), its own import() and the inspector's server thread if the
 * launcher started it already.
 */
export function main(argv: readonly string[], cacheRoot: string | undefined, importUrl: ImportUrl, inspectorThread?: Worker): void {
  lendImport(importUrl);
  // Not awaited: an awaiting caller would appear in the async stack trace of every user error.
  let running: Promise<void>;
  try {
    const parsed = parseArgs(argv);
    assertFlagsFitCommand(parsed);
    assertTestFlags(parsed);
    changeDirectory(parsed.values.cwd);
    // rt build --watch rebuilds in place (esbuild watches), Node's test runner reruns its tests
    // itself; only programs run under the supervisor.
    if (parsed.values.watch === true && parsed.command !== "build" && parsed.values.test !== true && !isWatchChild()) {
      running = superviseWatch(argv, parsed.values);
    } else {
      const values = withConfig(parsed.values);
      // Before the env files: a restarted process reads them itself, from the real environment.
      if (applyStartupOptions(values, argv)) return;
      if (inspectorFlag(values)) bootInspectorThread(inspectorThread);
      loadEnvFiles(values);
      running = dispatch({ ...parsed, values }, openCacheRoot(cacheRoot, process.env));
    }
  } catch (error) {
    running = Promise.reject(error);
  }
  running.catch(reportUserMistake);
}

/** rt's own errors for user mistakes print without a stack; anything else is the program's own. */
function reportUserMistake(error: unknown): void {
  if (error instanceof UsageError) {
    process.stderr.write(`rt: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else if (error instanceof ProgramError) {
    process.stderr.write(error.display);
    process.exitCode = error.exitCode;
  } else {
    // The program's own error, thrown again outside the promise so that it is an uncaught
    // exception (not an unhandled rejection), as an error in Node's main module is.
    process.nextTick(() => {
      throw error;
    });
  }
}

function dispatch(parsed: ParsedArgs, cacheRoot: string | undefined): Promise<void> {
  const { values, target, args } = parsed;
  const invocation: Invocation = { values, args, cacheRoot };
  // `rt secrets <subcommand> --help` is that subcommand's help.
  if (parsed.command === "secrets") return secretsCommand(target, args, parsed);
  if (values.help) return print(helpText());
  if (values.version) return print(`${RT_VERSION} (${runningNode(cacheRoot)})\n`);
  if (parsed.command === "build") return buildCommand(parsed, invocation);
  if (values.test === true) {
    runTests(target === undefined ? [] : [target, ...args], invocation);
    return Promise.resolve();
  }
  if (values.print !== undefined) return printCode(values.print, invocation);
  if (values.eval !== undefined) return evalCode(values.eval, invocation);
  if (target === "-") return runStdin(invocation);
  if (isScriptCommand(parsed)) return runScripts(parsed, invocation);
  if (target === undefined) return print(helpText());
  const resolved = resolveRunTarget(target, { forced: parsed.command === "run", ifPresent: values["if-present"] === true });
  return resolved.kind === "file" ? runFile(resolved.file, invocation) : runTarget(resolved, invocation);
}

function print(text: string): Promise<void> {
  process.stdout.write(text);
  return Promise.resolve();
}
