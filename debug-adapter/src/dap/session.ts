// The Debug Adapter Protocol side: DAP requests in, answers and events out, each request with a
// bounded time and an error answer the user can act on. Usable inline (the extension wraps it in
// a DebugAdapterInlineImplementation) and over stdio (main.ts).
import type { ChildProcess } from "node:child_process";
import { DebugSession, ExitedEvent, InitializedEvent, OutputEvent, TerminatedEvent, ThreadEvent } from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { CdpConnection, trace, type CdpSession, type WorkerInfo } from "../cdp/connection.js";
import { WorkerSession } from "../cdp/worker.js";
import type { AttachArguments, LaunchArguments, RestartPolicy } from "../configuration.js";
import { Debuggee, MAIN_THREAD_ID, threadOf, type DebuggeeEvents } from "../adapter/debuggee.js";
import { isInternal } from "../adapter/internal.js";
import { attachUrl } from "../targets/attach.js";
import { NotifyChannel, planLaunch, spawnRt, terminateProcess, type Announcement, type LaunchPlan } from "../targets/launch.js";

export interface RtDebugSessionOptions {
  /** The rt used when a launch configuration names none (default: `rt` on PATH). */
  readonly runtimeExecutable?: string;
}

/** Every request answers within this time (a launch waits longer: rt may have to start). */
const REQUEST_TIMEOUT_MS = 15_000;
const LAUNCH_TIMEOUT_MS = 30_000;
/** How long rt may take to report in after it was started. */
const ANNOUNCE_TIMEOUT_MS = 20_000;
/** How long a launch waits for the client's configurationDone before letting the program run. */
const CONFIGURATION_TIMEOUT_MS = 10_000;

const ERROR_ID = 4000;

const INSPECTOR_BANNER = /-+ rt inspector -+\n[\s\S]*?-+ rt inspector -+\n/;
/** Node's line at the program's end, when rt waits for the adapter (which then disconnects at once). */
const WAITING_FOR_DISCONNECT = /^Waiting for the debugger to disconnect\.\.\.\n/m;

type Target =
  | { readonly kind: "launch"; readonly args: LaunchArguments; plan: LaunchPlan; child?: ChildProcess; pid?: number; notify?: NotifyChannel; ended: boolean }
  | { readonly kind: "attach"; readonly args: AttachArguments; url: string };

export class RtDebugSession extends DebugSession {
  private readonly debuggee = new Debuggee(this.eventsOf(MAIN_THREAD_ID));
  /** Worker threads, by DAP thread id (2, 3, ...). */
  private readonly workers = new Map<number, { debuggee: Debuggee; info: WorkerInfo }>();
  private nextThreadId = MAIN_THREAD_ID + 1;
  /** What the client asked for, so that each new worker gets it too. */
  private readonly breakpointSpecs = new Map<string, DebugProtocol.SourceBreakpoint[]>();
  private exceptionFilters: string[] = [];
  private target: Target | undefined;
  private configured!: Promise<void>;
  private markConfigured!: () => void;
  private terminatedSent = false;
  private stopping = false;

  constructor(private readonly options: RtDebugSessionOptions = {}) {
    super();
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
    this.resetConfigured();
  }

  // --- setup -------------------------------------------------------------------------------

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsEvaluateForHovers: true,
      supportsSetVariable: true,
      supportsCompletionsRequest: true,
      completionTriggerCharacters: ["."],
      supportsExceptionInfoRequest: true,
      supportsTerminateRequest: true,
      supportsRestartRequest: true,
      supportsDelayedStackTraceLoading: true,
      exceptionBreakpointFilters: [
        { filter: "all", label: "Caught Exceptions", default: false },
        { filter: "uncaught", label: "Uncaught Exceptions", default: false },
      ],
    };
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.markConfigured();
    this.sendResponse(response);
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, args: LaunchArguments): void {
    this.handle(response, () => this.launch(args), LAUNCH_TIMEOUT_MS, "launch");
  }

  protected override attachRequest(response: DebugProtocol.AttachResponse, args: AttachArguments): void {
    this.handle(response, () => this.attach(args), LAUNCH_TIMEOUT_MS, "attach");
  }

  // --- breakpoints -------------------------------------------------------------------------

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    this.handle(response, async () => {
      const file = args.source.path;
      if (!file) throw new Error("breakpoints need a source with a file path");
      const requested = args.breakpoints ?? (args.lines ?? []).map((line) => ({ line }));
      this.breakpointSpecs.set(file, requested);
      await Promise.all([...this.workers.values()].map(({ debuggee }) => debuggee.setBreakpoints(file, requested).catch(() => [])));
      // Verification is reported for the main thread's copy (the editor shows one gutter mark).
      return { breakpoints: await this.debuggee.setBreakpoints(file, requested) };
    });
  }

  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse, args: DebugProtocol.SetExceptionBreakpointsArguments): void {
    this.handle(response, async () => {
      const unknown = args.filters.filter((filter) => filter !== "all" && filter !== "uncaught");
      if (unknown.length) throw new Error(`unknown exception filter "${unknown[0]}": use "all" or "uncaught"`);
      this.exceptionFilters = args.filters;
      await Promise.all([this.debuggee, ...[...this.workers.values()].map((worker) => worker.debuggee)].map((debuggee) => debuggee.setExceptionFilters(args.filters)));
      return {};
    });
  }

  // --- execution ---------------------------------------------------------------------------

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: [{ id: MAIN_THREAD_ID, name: "main" }, ...[...this.workers].map(([id, { info }]) => ({ id, name: info.title || `worker ${info.workerId}` }))] };
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse, args: DebugProtocol.ContinueArguments): void {
    this.handle(response, async () => {
      await this.thread(args.threadId).resume();
      return { allThreadsContinued: args.threadId === MAIN_THREAD_ID };
    });
  }

  protected override nextRequest(response: DebugProtocol.NextResponse, args: DebugProtocol.NextArguments): void {
    this.handle(response, () => this.thread(args.threadId).step("over"));
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse, args: DebugProtocol.StepInArguments): void {
    this.handle(response, () => this.thread(args.threadId).step("into"));
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse, args: DebugProtocol.StepOutArguments): void {
    this.handle(response, () => this.thread(args.threadId).step("out"));
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse, args: DebugProtocol.PauseArguments): void {
    this.handle(response, () => this.thread(args.threadId).pause());
  }

  // --- inspection --------------------------------------------------------------------------

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    this.handle(response, async () => this.thread(args.threadId).stackTrace(args.startFrame, args.levels));
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    this.handle(response, async () => ({ scopes: this.thread(threadOf(args.frameId)).scopes(args.frameId) }));
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    this.handle(response, async () => ({
      variables: await this.thread(threadOf(args.variablesReference)).variables.list(args.variablesReference, args.filter, args.start, args.count),
    }));
  }

  protected override setVariableRequest(response: DebugProtocol.SetVariableResponse, args: DebugProtocol.SetVariableArguments): void {
    this.handle(response, async () => {
      const variable = await this.thread(threadOf(args.variablesReference)).setVariable(args.variablesReference, args.name, args.value, undefined);
      return { value: variable.value, type: variable.type, variablesReference: variable.variablesReference };
    });
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    this.handle(response, () => this.thread(args.frameId === undefined ? MAIN_THREAD_ID : threadOf(args.frameId)).evaluate(args.expression, args.frameId, args.context));
  }

  protected override completionsRequest(response: DebugProtocol.CompletionsResponse, args: DebugProtocol.CompletionsArguments): void {
    this.handle(response, async () => ({
      targets: await this.thread(args.frameId === undefined ? MAIN_THREAD_ID : threadOf(args.frameId)).completions(args.text, args.column, args.frameId),
    }));
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse, args: DebugProtocol.ExceptionInfoArguments): void {
    this.handle(response, async () => this.thread(args.threadId).exceptionInfo());
  }

  protected override sourceRequest(response: DebugProtocol.SourceResponse, args: DebugProtocol.SourceArguments): void {
    this.handle(response, async () => {
      const reference = args.source?.sourceReference ?? args.sourceReference;
      return { content: await this.thread(threadOf(reference)).sourceText(reference) };
    });
  }

  // --- lifecycle ---------------------------------------------------------------------------

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.handle(response, () => this.stopProgram());
  }

  protected override restartRequest(response: DebugProtocol.RestartResponse): void {
    this.handle(
      response,
      async () => {
        const target = this.target;
        if (!target) throw new Error("nothing to restart: the session has not started");
        if (target.kind === "launch") {
          this.stopping = true;
          await this.stopProgram();
          target.notify?.close();
          this.stopping = false;
          await this.launch(target.args, true);
        } else {
          this.debuggee.connected?.close();
          await this.connectAttached(target, true);
        }
      },
      LAUNCH_TIMEOUT_MS,
    );
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse, args: DebugProtocol.DisconnectArguments): void {
    this.handle(response, async () => {
      const target = this.target;
      this.stopping = true;
      if (target?.kind === "launch" && args.terminateDebuggee !== false) {
        await this.stopProgram();
      } else {
        // Leave the program running: Debugger.disable drops this client's breakpoints and lets
        // a paused program go (so it can't stop again before the hang-up is seen), then hang up.
        const cdp = this.debuggee.connected;
        if (cdp) {
          await cdp.send("Debugger.disable").catch(() => {});
          cdp.close();
        }
      }
      if (target?.kind === "launch") target.notify?.close();
      return {};
    });
  }

  // --- targets -----------------------------------------------------------------------------

  private async launch(args: LaunchArguments, restarting = false): Promise<void> {
    trace?.("launch requested");
    const plan = planLaunch(args, this.options.runtimeExecutable);
    const target: Target & { kind: "launch" } = { kind: "launch", args, plan, ended: false };
    this.target = target;
    this.terminatedSent = false;
    if (plan.notifyPath) target.notify = await NotifyChannel.open(plan.notifyPath);
    let giveUp!: (reason: string) => void;
    const gaveUp = new Promise<string>((resolve) => (giveUp = resolve));
    if (args.console === "integratedTerminal") {
      const processId = await this.runInTerminal(plan);
      if (processId) target.pid = processId;
      if (args.noDebug) return;
    } else {
      trace?.(`starting ${plan.executable} ${plan.args.join(" ")}`);
      const child = spawnRt(plan);
      target.child = child;
      target.pid = child.pid;
      let stderrTail = "";
      child.stdout!.setEncoding("utf8").on("data", (text: string) => this.sendEvent(new OutputEvent(text, "stdout")));
      child.stderr!.setEncoding("utf8").on("data", (text: string) => {
        stderrTail = (stderrTail + text).slice(-2000);
        // rt's banner is for people reading a terminal: here the adapter is the client.
        const shown = text.replace(INSPECTOR_BANNER, "").replace(WAITING_FOR_DISCONNECT, "");
        if (shown) this.sendEvent(new OutputEvent(shown, "stderr"));
      });
      child.stdin!.on("error", () => {});
      child.once("error", (error) => giveUp(`cannot start ${plan.executable}: ${error.message}`));
      child.once("close", (code, signal) => {
        target.ended = true;
        const lastLine = stderrTail.replace(INSPECTOR_BANNER, "").trim().split("\n").pop();
        giveUp(`rt exited ${signal ? `on ${signal}` : `with code ${code}`} before the debugger could attach${lastLine ? `: ${lastLine}` : ""}`);
        if (this.target !== target || this.stopping) return;
        this.sendEvent(new ExitedEvent(code ?? 128 + signalNumber(signal)));
        this.sendTerminated();
      });
    }
    if (args.noDebug || !target.notify) return;
    const timer = setTimeout(() => giveUp(`rt did not report its debugger address within ${ANNOUNCE_TIMEOUT_MS / 1000} s`), ANNOUNCE_TIMEOUT_MS);
    try {
      const announcement = await target.notify.next(gaveUp);
      trace?.(`rt reported in: ${announcement.url}`);
      await this.connectLaunched(target, announcement, true);
    } finally {
      clearTimeout(timer);
    }
    if (!restarting) await withTimeout(this.configured, CONFIGURATION_TIMEOUT_MS).catch(() => {});
    await this.debuggee.run();
  }

  private async connectLaunched(target: Target & { kind: "launch" }, announcement: Announcement, first: boolean): Promise<void> {
    const cdp = await CdpConnection.connect(announcement.url);
    if (!target.child) target.pid = announcement.pid;
    await this.debuggee.attach(cdp, { stopOnEntry: first && target.args.stopOnEntry ? (target.plan.entry ?? true) : false, ownsStderr: target.child !== undefined });
    this.followWorkers(cdp);
    cdp.onClose(() => void this.launchedConnectionClosed(target, cdp));
  }

  /** The program ended or (watchMode) restarted: reattach to the next one, or end the session. */
  private async launchedConnectionClosed(target: Target & { kind: "launch" }, cdp: CdpConnection): Promise<void> {
    if (this.debuggee.connected && this.debuggee.connected !== cdp) return;
    const wasPaused = this.debuggee.isPaused;
    this.debuggee.detached();
    if (wasPaused) this.sendEvent({ event: "continued", body: { threadId: MAIN_THREAD_ID, allThreadsContinued: true }, seq: 0, type: "event" } as DebugProtocol.ContinuedEvent);
    if (this.target !== target || this.stopping) return;
    if (!target.args.watchMode || !target.notify || target.ended) {
      if (!target.child) this.sendTerminated();
      return;
    }
    let giveUp!: (reason: string) => void;
    const ended = new Promise<string>((resolve) => (giveUp = resolve));
    target.child?.once("close", () => giveUp("the program ended"));
    try {
      // Waits as long as the watcher does: the next restart comes when a file changes.
      const announcement = await target.notify.next(ended);
      if (this.target !== target || this.stopping) return;
      await this.connectLaunched(target, announcement, false);
      await this.debuggee.run();
      this.sendEvent(new OutputEvent("rt: the program restarted; the debugger reattached\n", "console"));
    } catch {
      // The supervisor ended, or the new program went away before we attached.
    }
  }

  private runInTerminal(plan: LaunchPlan): Promise<number | undefined> {
    return new Promise((resolve, reject) => {
      this.runInTerminalRequest(
        { kind: "integrated", title: "rt", cwd: plan.cwd, args: [plan.executable, ...plan.args], env: plan.envChanges },
        REQUEST_TIMEOUT_MS,
        (reply) => {
          if (!reply.success) reject(new Error(`the editor could not start rt in a terminal: ${reply.message ?? "no reason given"}`));
          else resolve(reply.body?.processId);
        },
      );
    });
  }

  private async attach(args: AttachArguments): Promise<void> {
    const target: Target & { kind: "attach" } = { kind: "attach", args, url: await attachUrl(args) };
    this.target = target;
    await this.connectAttached(target, false);
    await withTimeout(this.configured, CONFIGURATION_TIMEOUT_MS).catch(() => {});
    await this.debuggee.run();
  }

  private async connectAttached(target: Target & { kind: "attach" }, retry: boolean): Promise<void> {
    const policy: RestartPolicy = typeof target.args.restart === "object" ? target.args.restart : {};
    const attempts = retry ? (policy.maxAttempts ?? 10) : 1;
    let delay = policy.delayMs ?? 200;
    for (let attempt = 1; ; attempt++) {
      try {
        // By port, a restarted program may have a new session id: ask /json/list again.
        const url = retry && target.args.port !== undefined && !target.args.url ? await attachUrl(target.args) : target.url;
        const cdp = await CdpConnection.connect(url, 5000);
        await this.debuggee.attach(cdp, { ownsStderr: false });
        this.followWorkers(cdp);
        cdp.onClose(() => void this.attachedConnectionClosed(target, cdp));
        if (retry) await this.debuggee.run();
        return;
      } catch (error) {
        if (attempt >= attempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  private async attachedConnectionClosed(target: Target & { kind: "attach" }, cdp: CdpConnection): Promise<void> {
    if (this.debuggee.connected && this.debuggee.connected !== cdp) return;
    this.debuggee.detached();
    if (this.target !== target || this.stopping) return;
    if (target.args.restart) {
      try {
        await this.connectAttached(target, true);
        this.sendEvent(new OutputEvent("rt: reattached to the restarted program\n", "console"));
        return;
      } catch {
        // Gave up: the session ends.
      }
    }
    this.sendTerminated();
  }

  /** Ends a launched program (SIGTERM, then SIGKILL); an attached one is only left. */
  private async stopProgram(): Promise<void> {
    const target = this.target;
    if (target?.kind !== "launch") {
      this.debuggee.connected?.close();
      return;
    }
    const pid = target.child?.pid ?? target.pid;
    if (target.child && !target.ended) {
      const closed = new Promise<void>((resolve) => target.child!.once("close", () => resolve()));
      await terminateProcess(pid!);
      await withTimeout(closed, 3000).catch(() => {});
    } else if (pid) {
      await terminateProcess(pid);
      this.sendTerminated();
    }
  }

  // --- worker threads ----------------------------------------------------------------------

  /**
   * Worker threads become threads of their own: each waits at its start until its breakpoints
   * are set (NodeWorker.enable with waitForDebuggerOnStart). rt's own inspector thread is left alone.
   */
  private followWorkers(cdp: CdpSession): void {
    cdp.on("NodeWorker.attachedToWorker", ({ sessionId, workerInfo }) => void this.workerStarted(cdp, sessionId, workerInfo));
    // Not awaited: commands run in order, so it is in force before the program is let go.
    void cdp.send("NodeWorker.enable", { waitForDebuggerOnStart: true }).catch(() => {});
  }

  private async workerStarted(parent: CdpSession, sessionId: string, info: WorkerInfo): Promise<void> {
    const session = new WorkerSession(parent, sessionId);
    if (isInternal(info.url)) {
      session.close();
      return;
    }
    const threadId = this.nextThreadId++;
    const debuggee = new Debuggee(this.eventsOf(threadId), threadId);
    this.workers.set(threadId, { debuggee, info });
    this.sendEvent(new ThreadEvent("started", threadId));
    session.onClose(() => {
      debuggee.detached();
      if (this.workers.delete(threadId)) this.sendEvent(new ThreadEvent("exited", threadId));
    });
    try {
      // A worker's console output reaches the main thread's stdout: not shown twice.
      await debuggee.attach(session, { ownsStderr: true, console: false });
      for (const [file, specs] of this.breakpointSpecs) await debuggee.setBreakpoints(file, specs);
      await debuggee.setExceptionFilters(this.exceptionFilters);
    } finally {
      await debuggee.run().catch(() => {});
    }
  }

  private thread(threadId: number): Debuggee {
    if (threadId === MAIN_THREAD_ID) return this.debuggee;
    const worker = this.workers.get(threadId);
    if (!worker) throw new Error(`no thread ${threadId}: it has ended`);
    return worker.debuggee;
  }

  private eventsOf(threadId: number): DebuggeeEvents {
    return {
      stopped: (body) => this.sendEvent({ event: "stopped", body, seq: 0, type: "event" } as DebugProtocol.StoppedEvent),
      continued: () =>
        this.sendEvent({ event: "continued", body: { threadId, allThreadsContinued: threadId === MAIN_THREAD_ID }, seq: 0, type: "event" } as DebugProtocol.ContinuedEvent),
      output: (body) => this.sendEvent({ event: "output", body, seq: 0, type: "event" } as DebugProtocol.OutputEvent),
      // The main thread's copy of a breakpoint is the one the editor shows; a worker's copy that
      // is set verifies it.
      breakpointChanged: (breakpoint, index) => {
        if (threadId === MAIN_THREAD_ID) this.sendEvent({ event: "breakpoint", body: { reason: "changed", breakpoint }, seq: 0, type: "event" } as DebugProtocol.BreakpointEvent);
        else if (breakpoint.verified && breakpoint.source?.path && breakpoint.line) this.debuggee.verifiedElsewhere(breakpoint.source.path, index, breakpoint.line, breakpoint.column);
      },
    };
  }

  // --- helpers -----------------------------------------------------------------------------

  private sendTerminated(): void {
    if (this.terminatedSent) return;
    this.terminatedSent = true;
    this.sendEvent(new TerminatedEvent());
  }

  private resetConfigured(): void {
    this.configured = new Promise((resolve) => (this.markConfigured = resolve));
  }

  /** Runs a request's work with a bounded time; failures become DAP error answers. */
  private handle<R extends DebugProtocol.Response>(response: R, work: () => Promise<R["body"] | void>, timeoutMs = REQUEST_TIMEOUT_MS, what?: string): void {
    withTimeout(Promise.resolve().then(work), timeoutMs, `${what ?? response.command} did not finish within ${timeoutMs / 1000} s`).then(
      (body) => {
        if (body) response.body = body;
        this.sendResponse(response);
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        this.sendErrorResponse(response, { id: ERROR_ID, format: message.replace(/[{}]/g, (brace) => (brace === "{" ? "(" : ")")), showUser: true });
      },
    );
  }

  override shutdown(): void {
    const target = this.target;
    if (target?.kind === "launch") {
      target.notify?.close();
      if (target.child && !target.ended) target.child.kill("SIGKILL");
    }
    super.shutdown();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message = `no answer within ${ms} ms`): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  if (!signal) return 0;
  const { constants } = require("node:os") as typeof import("node:os");
  return constants.signals[signal] ?? 0;
}
