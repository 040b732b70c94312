// Runs tasks (a script in a package, with its pre/post steps) concurrently or one at a time,
// each only after the tasks it depends on have ended, and hands their output, line by line, to
// a reporter (prefixed, Foreman-style or live).
import type { Readable } from "node:stream";
import { startStep, type ScriptSettings, type Step } from "./lifecycle.js";
import { receivedSignal, type ChildRun, type Outcome } from "./process.js";
import type { Task } from "./workspaces.js";

export interface Reporter {
  /** A step of `task` started; what it prints and how it ends go to the returned view. */
  stepStarted(task: Task, step: Step): StepView;
  /** Nothing is running and nothing more will start. */
  finished(): void;
}

export interface StepView {
  output(line: string, stream: "stdout" | "stderr"): void;
  ended(outcome: Outcome): void;
}

export interface ScheduleOptions {
  /** One task at a time, in dependency order; otherwise every task whose dependencies ended. */
  readonly sequential: boolean;
  /** After a failure start nothing new; with `interrupt`, also send SIGINT to the running ones. */
  readonly stopOnFailure: boolean;
  readonly interrupt: boolean;
}

/** Resolves to rt's exit code: the first failure's, else 0. */
export function runTasks(tasks: readonly Task[], settings: ScriptSettings, options: ScheduleOptions, reporter: Reporter): Promise<number> {
  const ended = new Set<Task>();
  const started = new Set<Task>();
  const running = new Map<Task, ChildRun>();
  let failure: number | undefined;

  return new Promise((resolve, reject) => {
    const pump = (): void => {
      const stopping = receivedSignal() !== undefined || (failure !== undefined && options.stopOnFailure);
      for (const task of stopping ? [] : tasks) {
        if (options.sequential && running.size > 0) break;
        if (started.has(task) || !task.dependencies.every((dependency) => ended.has(dependency))) continue;
        started.add(task);
        runTask(task).then((exitCode) => {
          running.delete(task);
          ended.add(task);
          if (exitCode !== 0 && failure === undefined) {
            failure = exitCode;
            if (options.stopOnFailure && options.interrupt) for (const other of running.values()) other.interrupt("SIGINT");
          }
          pump();
        }, reject);
      }
      if (running.size === 0) {
        reporter.finished();
        resolve(failure ?? 0);
      }
    };

    const runTask = async (task: Task): Promise<number> => {
      for (const step of task.steps) {
        const view = reporter.stepStarted(task, step);
        const child = startStep(task.manifest, step, settings, true);
        running.set(task, child);
        forEachLine(child.stdout, (line) => view.output(line, "stdout"));
        forEachLine(child.stderr, (line) => view.output(line, "stderr"));
        const outcome = await child.outcome;
        view.ended(outcome);
        if (outcome.exitCode !== 0) return outcome.exitCode;
        if (receivedSignal() || (failure !== undefined && options.stopOnFailure && options.interrupt)) return 0;
      }
      return 0;
    };

    pump();
  });
}

/** Calls `onLine` with each line of `stream` (without its line ending), the last one even unterminated. */
function forEachLine(stream: Readable | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop()!;
    for (const line of lines) onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  });
  stream.on("end", () => {
    if (rest) onLine(rest);
  });
}
