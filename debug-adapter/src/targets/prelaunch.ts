// A program started before its session asks for it. An editor that runs the adapter in its own
// process (VS Code's inline adapter) knows the program the moment the user asks to debug a file,
// while the editor still spends 0.2–0.4 s on its own setup before the session's `launch` arrives.
// rt is started then: with --inspect-wait nothing of the program runs (preloads included) until
// a debugger attaches, so an early start shows nothing. The launch takes the process over when
// it asks for the same start; otherwise (another configuration, no session after all) it is ended.
import type { ChildProcess } from "node:child_process";
import { trace } from "../cdp/connection.js";
import { LAUNCH_ATTRIBUTES, type LaunchArguments } from "../configuration.js";
import { NotifyChannel, planLaunch, spawnRt, type LaunchPlan } from "./launch.js";

/** How long a started program waits for its session before it is ended. */
const UNCLAIMED_MS = 15_000;

/** A started rt and the channel it reports in on, not yet read. */
export interface StartedProgram {
  readonly plan: LaunchPlan;
  readonly notify: NotifyChannel;
  readonly child: ChildProcess;
}

interface Pending {
  readonly key: string;
  readonly started: Promise<StartedProgram | undefined>;
  readonly timer: NodeJS.Timeout;
  /** Set once the process exited or failed to start: the launch starts its own. */
  gone: boolean;
}

let pending: Pending | undefined;

const LAUNCH_ATTRIBUTE_NAMES = Object.keys(LAUNCH_ATTRIBUTES) as (keyof typeof LAUNCH_ATTRIBUTES)[];

/**
 * Two launches with the same key start the same command: every launch attribute of the one table
 * (both sides come from the same configuration, so attributes applied after the start match too).
 */
function startKey(args: LaunchArguments, defaultRuntime: string | undefined): string {
  return JSON.stringify([defaultRuntime, ...LAUNCH_ATTRIBUTE_NAMES.map((name) => args[name])]);
}

/**
 * Starts the program a launch with `args` (a configuration as the editor has it) will ask for,
 * when starting it early shows nothing: a file (a script's lifecycle hooks would run at once),
 * debugged, its output in the debug console (the terminal is the editor's to start), no watcher.
 * A configuration the launch would refuse starts nothing here: the launch reports it.
 */
export function prelaunch(args: LaunchArguments & { readonly request: string }, defaultRuntime: string | undefined): void {
  if (args.request !== "launch" || !args.program || args.noDebug || args.console === "integratedTerminal" || args.watchMode) return;
  const key = startKey(args, defaultRuntime);
  if (pending?.key === key && !pending.gone) return;
  discardPrelaunched();
  let plan: LaunchPlan;
  try {
    plan = planLaunch(args, defaultRuntime);
  } catch {
    return;
  }
  const entry: Pending = { key, started: start(plan, () => void (entry.gone = true)), timer: setTimeout(discardPrelaunched, UNCLAIMED_MS), gone: false };
  entry.timer.unref();
  pending = entry;
}

async function start(plan: LaunchPlan, gone: () => void): Promise<StartedProgram | undefined> {
  let notify: NotifyChannel;
  try {
    notify = await NotifyChannel.open(plan.notifyPath!);
  } catch {
    gone();
    return undefined;
  }
  trace?.(`starting ahead of the launch: ${plan.executable} ${plan.args.join(" ")}`);
  const child = spawnRt(plan);
  // Its output stays in the pipes until the launch reads it; its end, seen here, means the launch starts anew.
  child.once("error", gone).once("exit", gone);
  return { plan, notify, child };
}

/** The program started for a launch with these arguments, if it is still waiting (one started for other arguments is ended). */
export async function claimPrelaunched(args: LaunchArguments, defaultRuntime: string | undefined): Promise<StartedProgram | undefined> {
  const entry = pending;
  if (!entry) return undefined;
  if (entry.key !== startKey(args, defaultRuntime)) {
    // Another start than the one foreseen: the early one would wait for nothing.
    discardPrelaunched();
    return undefined;
  }
  pending = undefined;
  clearTimeout(entry.timer);
  const started = await entry.started;
  if (!started) return undefined;
  if (entry.gone) {
    started.notify.close();
    return undefined;
  }
  return started;
}

/** Ends a started program no session took (the editor's session did not start, or the editor goes away). */
export function discardPrelaunched(): void {
  const entry = pending;
  pending = undefined;
  if (!entry) return;
  clearTimeout(entry.timer);
  void entry.started.then((started) => {
    if (!started) return;
    started.notify.close();
    started.child.kill("SIGKILL");
  });
}
