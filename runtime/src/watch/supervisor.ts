// --watch: this process becomes a supervisor that runs the program in a child process (the same
// rt with the same arguments; the child knows it is supervised and runs the program itself) and
// restarts it when a file the child reported reading changes. The old child's exit is awaited
// before the new one starts, so a server's port is free again; a child that fails (a syntax
// error after an edit) has printed its error, and the supervisor keeps watching.
import type { ChildProcess } from "node:child_process";
import * as path from "node:path";
import type { Readable } from "node:stream";
import type { FlagValues } from "../flags/parse.js";
import { UsageError } from "../errors.js";
import { pinInspectorAddress } from "../inspector/address.js";
import { FileWatcher, clearScreen } from "./files.js";
import { REPORT_FD_VARIABLE } from "./report.js";

const REPORT_FD = 3;
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/**
 * How long a restart or a stop waits for the program after the signal before killing it: a
 * graceful shutdown has that long; a program that cannot handle the signal (paused in a debugger,
 * stuck in its handler) must not hang the supervisor.
 */
const GRACE_MS = 5000;

/** Runs and restarts the program until this process gets a stop signal; never resolves. */
export function superviseWatch(rtArgs: readonly string[], values: FlagValues): Promise<never> {
  if (values.hot === true) throw new UsageError("--watch and --hot can't be combined: --watch restarts the process, --hot reloads modules inside it");
  // A client of the debugger keeps its address across restarts.
  return pinInspectorAddress(rtArgs).then((args) => {
    new Supervisor(args, values["no-clear-screen"] === true).start();
    return new Promise<never>(() => {});
  });
}

interface Running {
  readonly process: ChildProcess;
  readonly exited: Promise<void>;
}

class Supervisor {
  private child: Running | undefined;
  private restarting = false;
  private readonly watcher = new FileWatcher((files) => void this.restart(files));

  constructor(
    private readonly rtArgs: readonly string[],
    private readonly noClearScreen: boolean,
  ) {
    for (const signal of STOP_SIGNALS) process.once(signal, () => void this.stop(signal));
  }

  start(): void {
    const { spawn } = require("node:child_process") as typeof import("node:child_process");
    const child = spawn(process.execPath, [...process.execArgv, "--", process.argv[1]!, ...this.rtArgs], {
      stdio: ["inherit", "inherit", "inherit", "pipe"],
      env: { ...process.env, [REPORT_FD_VARIABLE]: String(REPORT_FD) },
    });
    let partial = "";
    (child.stdio[REPORT_FD] as Readable).setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop()!;
      for (const file of lines) if (file) this.watcher.add(file);
    });
    const running: Running = {
      process: child,
      exited: new Promise((resolve) => {
        child.once("exit", (code, signal) => {
          if (!this.restarting && (code !== 0 || signal)) {
            process.stderr.write(`rt --watch: the program ${signal ? `was killed by ${signal}` : `exited with code ${code}`}; waiting for a file to change\n`);
          }
          resolve();
        });
      }),
    };
    this.child = running;
  }

  /** Changes that arrive while restarting are already seen by the child about to start. */
  private async restart(files: readonly string[]): Promise<void> {
    if (this.restarting) return;
    this.restarting = true;
    await this.stopChild("SIGTERM");
    clearScreen(this.noClearScreen);
    process.stderr.write(`rt --watch: restarting: ${files.map((file) => path.relative(process.cwd(), file) || file).join(", ")} changed\n`);
    this.start();
    this.restarting = false;
  }

  private async stopChild(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.process.kill(signal);
    const timer = setTimeout(() => {
      process.stderr.write(`rt --watch: the program did not exit ${GRACE_MS / 1000} s after ${signal}; killing it\n`);
      child.process.kill("SIGKILL");
    }, GRACE_MS);
    await child.exited;
    clearTimeout(timer);
  }

  /** Ctrl-C and friends: stop the program, then end as that signal would have. */
  private async stop(signal: NodeJS.Signals): Promise<void> {
    this.restarting = true;
    this.watcher.close();
    await this.stopChild(signal);
    process.kill(process.pid, signal);
  }
}
