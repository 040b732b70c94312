// The child side of --watch: the supervisor starts rt with a pipe on a file descriptor named by
// RT_WATCH_REPORT_FD, and this process writes there each file it reads (modules as they load,
// rtfig.toml, env files, tsconfig.json), one path a line, before using it: even a run that fails
// on a file has reported it. In any other process nothing is written and nothing is loaded.
import { writeSync } from "node:fs";
import type { ModuleTracker } from "../loader/hooks.js";

export const REPORT_FD_VARIABLE = "RT_WATCH_REPORT_FD";

let reportFd: number | undefined | null = null;

/** The supervisor's pipe; the variable is removed so the program's own child processes don't inherit it. */
function channel(): number | undefined {
  if (reportFd === null) {
    const value = process.env[REPORT_FD_VARIABLE];
    reportFd = value ? Number(value) : undefined;
    if (value !== undefined) delete process.env[REPORT_FD_VARIABLE];
  }
  return reportFd;
}

/** The supervisor's pipe, for the worker threads of this process to report their files too. */
export function watchReportFd(): number | undefined {
  return channel();
}

/** True in a process started by a --watch supervisor (which handles --watch itself). */
export function isWatchChild(): boolean {
  return channel() !== undefined;
}

/** Tells the supervisor to watch `file` (which may not exist yet: creating it restarts too). */
export function reportWatched(file: string): void {
  const fd = channel();
  if (fd === undefined) return;
  try {
    writeSync(fd, `${file}\n`);
  } catch {
    // The supervisor is gone: nothing left to tell.
  }
}

/** The module tracker of a --watch child, or undefined. */
export function watchReporter(): ModuleTracker | undefined {
  if (!isWatchChild()) return undefined;
  return { loaded: reportWatched, resolved: (url) => url };
}
