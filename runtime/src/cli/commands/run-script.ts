// `rt run` for everything that is not a source file: a package.json script (`rt run dev`,
// `rt dev`), a project binary (`rt run eslint .`), a system command (`rt run echo hi`), the list
// of scripts (`rt run`, `rt run --json`) and scripts across workspace packages or several at once
// (`--filter`, `--workspaces`, `--parallel`, `--sequential`). This path loads neither the module
// hooks nor the transpiler: only child_process and the run/ modules.
import { flagDefault } from "../../flags/table.js";
import { INSPECT_VARIABLE, inspectorVariable } from "../../inspector/environment.js";
import { discardInspectorThread, inspectorFlag } from "../../inspector/start.js";
import type { FlagValues, ParsedArgs } from "../../flags/parse.js";
import type { Invocation } from "../../register/prepare.js";
import { ProgramError, UsageError } from "../../errors.js";
import { nodeShimDir } from "../../run/environment.js";
import { runExecutableInForeground, runScriptInForeground, type ForegroundSettings } from "../../run/foreground.js";
import { scriptsJson, scriptsText } from "../../run/listing.js";
import { findManifest, noManifestError, type Manifest } from "../../run/manifest.js";
import { foremanReporter } from "../../run/output/foreman.js";
import { liveReporter } from "../../run/output/live.js";
import { prefixedReporter } from "../../run/output/prefixed.js";
import { isTerminal } from "../../run/output/style.js";
import { exitWith, writeFully } from "../../run/output/write.js";
import { runTasks } from "../../run/scheduler.js";
import type { ShellKind } from "../../run/shell.js";
import { scriptNotFound, type RunTarget } from "../../run/target.js";
import { dependencyOrder, filterPackages, loadWorkspace, missingInPackage, noneHaveScript, planTasks, type Workspace } from "../../run/workspaces.js";

/** Lists scripts or runs them across packages / several at once, rather than resolving one name. */
export function isScriptCommand({ command, target, values }: ParsedArgs): boolean {
  if (values.filter || values.workspaces || values.parallel || values.sequential || values.json) return true;
  return target === undefined && command === "run";
}

/** Runs a resolved script, binary or command in the foreground; rt exits with its exit code. */
export async function runTarget(target: Exclude<RunTarget, { kind: "file" }>, invocation: Invocation): Promise<void> {
  if (target.kind === "absent") return;
  passDebuggerDown(invocation.values);
  const settings = scriptSettings(invocation.values, invocation.cacheRoot);
  if (target.kind === "script") {
    exitWith(await runScriptInForeground(target.manifest, target.name, withoutSeparator(invocation.args), settings));
  } else {
    exitWith(await runExecutableInForeground(target.file, invocation.args, findManifest(process.cwd()), settings.shimDir));
  }
}

export async function runScripts(parsed: ParsedArgs, invocation: Invocation): Promise<void> {
  const values = invocation.values;
  if (values.parallel && values.sequential) throw new UsageError("--parallel and --sequential exclude each other: choose one");
  if (parsed.target === undefined) {
    if (values.parallel || values.sequential) throw new UsageError(`${values.parallel ? "--parallel" : "--sequential"} needs the names of the scripts to run`);
    return listScripts(values);
  }
  if (values.json) throw new UsageError("--json lists the scripts: give no script name");
  passDebuggerDown(values);
  const several = values.parallel === true || values.sequential === true;
  const names = several ? [parsed.target, ...parsed.args] : [parsed.target];
  const ifPresent = values["if-present"] === true;
  const { workspace, selected, acrossPackages } = selectPackages(values);
  const filter = values.filter;
  const tasks = planTasks(workspace, selected, {
    names,
    args: several ? [] : withoutSeparator(parsed.args),
    shell: shellOf(values),
    labelPackages: acrossPackages,
    onMissing(manifest, name) {
      if (ifPresent || filter) return;
      throw acrossPackages ? missingInPackage(manifest, name) : scriptNotFound(name, manifest);
    },
  });
  if (tasks.length === 0) {
    if (ifPresent) return;
    throw noneHaveScript(names, selected, filter ?? []);
  }
  const elideLines = values["elide-lines"] ?? flagDefault("elide-lines");
  const reporter = several ? foremanReporter(tasks) : isTerminal(1) ? liveReporter(elideLines) : prefixedReporter();
  exitWith(
    await runTasks(
      values.sequential ? dependencyOrder(tasks) : tasks,
      scriptSettings(values, invocation.cacheRoot),
      {
        sequential: values.sequential === true,
        stopOnFailure: several && values["no-exit-on-error"] !== true,
        interrupt: values.parallel === true,
      },
      reporter,
    ),
  );
}

/** The packages a run or a listing covers: --filter/--workspaces ones, else the cwd's package. */
function selectPackages(values: FlagValues): { workspace: Workspace; selected: readonly Manifest[]; acrossPackages: boolean } {
  const cwd = process.cwd();
  if (values.filter || values.workspaces) {
    const workspace = loadWorkspace(cwd);
    if (values.workspaces && !workspace.declared) {
      throw new ProgramError(`--workspaces: ${workspace.root.file} has no "workspaces" field; add one, or use --filter`, "ERR_WORKSPACE");
    }
    const selected = values.filter ? filterPackages(workspace, values.filter, cwd) : workspace.packages;
    return { workspace, selected, acrossPackages: true };
  }
  const manifest = findManifest(cwd);
  if (!manifest) throw noManifestError(cwd);
  return { workspace: { root: manifest, packages: [manifest], declared: false }, selected: [manifest], acrossPackages: false };
}

function listScripts(values: FlagValues): Promise<void> {
  const { selected, acrossPackages } = selectPackages(values);
  writeFully(1, values.json ? scriptsJson(selected) : scriptsText(selected, acrossPackages));
  return Promise.resolve();
}

/**
 * `rt --inspect run dev`: the runner runs none of the user's JavaScript, so a debugger flag is for
 * the programs the script runs. It goes down in RT_INSPECT, which an rt that runs a program takes
 * as its own flag (as from a debug adapter) and removes for the processes that program starts.
 */
function passDebuggerDown(values: FlagValues): void {
  const flag = inspectorFlag(values);
  if (!flag) return;
  process.env[INSPECT_VARIABLE] = inspectorVariable(flag.mode, flag.value);
  discardInspectorThread();
}

/** Settings from the command line merged with rtfig.toml's [run] table. */
function scriptSettings(values: FlagValues, cacheRoot: string | undefined): ForegroundSettings {
  return { shell: shellOf(values), silent: values.silent === true, shimDir: values.rt === true ? nodeShimDir(cacheRoot) : undefined };
}

function shellOf(values: FlagValues): ShellKind {
  return values.shell ?? flagDefault("shell");
}

/** `rt run build -- --prod` gives the script `--prod`, as npm does. */
function withoutSeparator(args: readonly string[]): readonly string[] {
  return args[0] === "--" ? args.slice(1) : args;
}
