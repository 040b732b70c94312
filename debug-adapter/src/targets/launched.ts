// A program this adapter launched: rt spawned with its output forwarded (or started in the editor's
// terminal through runInTerminal), connected once it reports in on the notify channel, reattached
// after each rt --watch restart, ended with SIGTERM then SIGKILL.
import type { ChildProcess } from "node:child_process";
import { CdpConnection, trace } from "../cdp/connection.js";
import type { LaunchArguments } from "../configuration.js";
import { NotifyChannel, planLaunch, spawnRt, terminateProcess, type Announcement, type LaunchPlan } from "./launch.js";
import { claimPrelaunched } from "./prelaunch.js";
import { withTimeout } from "../timeout.js";
import { hangUp, type DebugTarget, type TargetEvents } from "./target.js";

/** How long rt may take to report in after it was started. */
const ANNOUNCE_TIMEOUT_MS = 20_000;

/** What rt prints on stderr for a person at a terminal about its debugger: here the adapter is the client. */
const INSPECTOR_LINES = /-+ rt inspector -+\n[\s\S]*?-+ rt inspector -+\n|^Waiting for the debugger to disconnect\.\.\.\n/gm;

/** Starts a command in the editor's terminal; resolves with its process id when the editor knows it. */
export type RunInTerminal = (plan: LaunchPlan) => Promise<number | undefined>;

/** One start of the program (a restart is a new one). */
interface Run {
  readonly plan: LaunchPlan;
  child?: ChildProcess;
  pid?: number;
  notify?: NotifyChannel;
  ended: boolean;
  connection?: CdpConnection;
}

export class LaunchedProgram implements DebugTarget {
  readonly ownsProcess = true;
  private run: Run | undefined;
  /** Set while the adapter itself ends the program: its exit is not reported as the program's. */
  private stopping = false;

  constructor(
    private readonly args: LaunchArguments,
    private readonly defaultRuntime: string | undefined,
    private readonly events: TargetEvents,
    private readonly runInTerminal: RunInTerminal,
  ) {}

  async start(): Promise<void> {
    trace?.("launch requested");
    const started = await claimPrelaunched(this.args, this.defaultRuntime);
    const run: Run = { plan: started?.plan ?? planLaunch(this.args, this.defaultRuntime), ended: false };
    this.run = run;
    const { plan } = run;
    if (started) run.notify = started.notify;
    else if (plan.notifyPath) run.notify = await NotifyChannel.open(plan.notifyPath);
    run.notify?.onChild((announcement) => this.events.child(announcement));
    let giveUp!: (reason: string) => void;
    const gaveUp = new Promise<string>((resolve) => (giveUp = resolve));
    if (this.args.console === "integratedTerminal") {
      const processId = await this.runInTerminal(plan);
      if (processId) run.pid = processId;
      if (this.args.noDebug) return;
    } else {
      if (!started) trace?.(`starting ${plan.executable} ${plan.args.join(" ")}`);
      this.follow(run, started?.child ?? spawnRt(plan), giveUp);
    }
    if (this.args.noDebug || !run.notify) return;
    const timer = setTimeout(() => giveUp(`rt did not report its debugger address within ${ANNOUNCE_TIMEOUT_MS / 1000} s`), ANNOUNCE_TIMEOUT_MS);
    try {
      const announcement = await run.notify.next(gaveUp);
      trace?.(`rt reported in: ${announcement.url}`);
      await this.connect(run, announcement, true);
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    const run = this.run;
    if (!run) return;
    const pid = run.child?.pid ?? run.pid;
    if (run.child) {
      // Ended already: nothing to stop, and its pid may be another process's by now.
      if (run.ended) return;
      const closed = new Promise<void>((resolve) => run.child!.once("close", () => resolve()));
      await terminateProcess(pid!);
      await withTimeout(closed, 3000).catch(() => {});
    } else if (pid) {
      // Started in the editor's terminal: no handle on its end but the pid.
      await terminateProcess(pid);
      this.events.ended();
    }
  }

  async restart(): Promise<void> {
    this.stopping = true;
    await this.stop();
    this.run?.notify?.close();
    this.stopping = false;
    await this.start();
  }

  async disconnect(terminate: boolean): Promise<void> {
    this.stopping = true;
    if (terminate) await this.stop();
    else if (this.run?.connection) await hangUp(this.run.connection);
    this.run?.notify?.close();
  }

  dispose(): void {
    const run = this.run;
    this.run = undefined;
    run?.notify?.close();
    if (run?.child && !run.ended) run.child.kill("SIGKILL");
  }

  /** Forwards the process's output and reports its end (output it wrote before this is still in the pipes). */
  private follow(run: Run, child: ChildProcess, giveUp: (reason: string) => void): void {
    const { plan } = run;
    run.child = child;
    run.pid = child.pid;
    let stderrTail = "";
    child.stdout!.setEncoding("utf8").on("data", (text: string) => this.events.output(text, "stdout"));
    child.stderr!.setEncoding("utf8").on("data", (text: string) => {
      stderrTail = (stderrTail + text).slice(-2000);
      const shown = text.replace(INSPECTOR_LINES, "");
      if (shown) this.events.output(shown, "stderr");
    });
    child.stdin!.on("error", () => {});
    child.once("error", (error) => giveUp(`cannot start ${plan.executable}: ${error.message}`));
    child.once("close", (code, signal) => {
      run.ended = true;
      const lastLine = stderrTail.replace(INSPECTOR_LINES, "").trim().split("\n").pop();
      giveUp(`rt exited ${signal ? `on ${signal}` : `with code ${code}`} before the debugger could attach${lastLine ? `: ${lastLine}` : ""}`);
      if (this.run !== run || this.stopping) return;
      this.events.exited(code ?? 128 + signalNumber(signal));
      this.events.ended();
    });
  }

  private async connect(run: Run, announcement: Announcement, first: boolean): Promise<void> {
    const cdp = await CdpConnection.connect(announcement.url);
    if (!run.child) run.pid = announcement.pid;
    run.connection = cdp;
    await this.events.connected({
      cdp,
      first,
      stopOnEntry: first && this.args.stopOnEntry ? (run.plan.entry ?? true) : false,
      ownsStderr: run.child !== undefined,
    });
    cdp.onClose(() => void this.connectionClosed(run, cdp));
  }

  /** The program ended or (watchMode) restarted: reattach to the next one, or end the session. */
  private async connectionClosed(run: Run, cdp: CdpConnection): Promise<void> {
    if (run.connection !== cdp) return;
    this.events.disconnected();
    if (this.run !== run || this.stopping) return;
    // While the launched process lives, another program of it may report in: rt --watch restarting
    // it (watchMode, or --watch in runtimeArgs or in the script itself), or the next rt of a script.
    // A program started in the terminal is followed only under watchMode: its end is not seen.
    if (!run.notify || run.ended || (!run.child && !this.args.watchMode)) {
      // A spawned program's end is reported when its process closes.
      if (!run.child) this.events.ended();
      return;
    }
    let giveUp!: (reason: string) => void;
    const ended = new Promise<string>((resolve) => (giveUp = resolve));
    run.child?.once("close", () => giveUp("the program ended"));
    try {
      // Waits as long as the watcher does: the next restart comes when a file changes.
      const announcement = await run.notify.next(ended);
      if (this.run !== run || this.stopping) return;
      await this.connect(run, announcement, false);
      await this.events.reattached("rt: the program restarted; the debugger reattached\n");
    } catch {
      // The supervisor ended, or the new program went away before we attached.
    }
  }
}

function signalNumber(signal: NodeJS.Signals | null): number {
  if (!signal) return 0;
  const { constants } = require("node:os") as typeof import("node:os");
  return constants.signals[signal] ?? 0;
}
