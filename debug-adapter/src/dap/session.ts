// The Debug Adapter Protocol side: DAP requests in, answers and events out, each request with a
// bounded time and an error answer the user can act on. Usable inline (the extension wraps it in
// a DebugAdapterInlineImplementation) and over stdio (main.ts).
import { DebugSession, ExitedEvent, InitializedEvent, OutputEvent, Response, TerminatedEvent, ThreadEvent } from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { WorkerInfo } from "../cdp/connection.js";
import type { WorkerSession } from "../cdp/worker.js";
import type { AttachArguments, LaunchArguments } from "../configuration.js";
import { Debuggee } from "../adapter/debuggee.js";
import { type DebuggeeEvents, MAIN_THREAD_ID, threadOf } from "../adapter/thread-state.js";
import { AttachedProgram } from "../targets/attach.js";
import { childConfiguration, isToolProcess, releaseChild } from "../targets/children.js";
import { LaunchedProgram } from "../targets/launched.js";
import type { Announcement, LaunchPlan } from "../targets/launch.js";
import type { DebugTarget, MainConnection, TargetEvents } from "../targets/target.js";
import { followWorkers } from "../targets/workers.js";
import { withTimeout } from "../timeout.js";
import { argumentsProblem } from "./arguments.js";

export interface RtDebugSessionOptions {
  /** The rt used when a launch configuration names none (default: `rt` on PATH). */
  readonly runtimeExecutable?: string;
}

/** Every request answers within this time (a launch waits longer: rt may have to start). */
const REQUEST_TIMEOUT_MS = 15_000;
/**
 * How long the editor may take to answer the requests it answers after doing the work (start a
 * child session, open a terminal): no limit (setTimeout's longest delay, ~24.8 days). VS Code
 * answers startDebugging once the child's session has attached, which a VS Code slowed down by a
 * loaded machine took longer than REQUEST_TIMEOUT_MS to do: the child let go then ran past the
 * breakpoints its session was about to set. A terminal answered late would start an rt that
 * waits for a debugger that had given up.
 */
const EDITOR_ANSWER_MS = 2 ** 31 - 1;
const LAUNCH_TIMEOUT_MS = 30_000;
/** How long a launch waits for the client's configurationDone before letting the program run. */
const CONFIGURATION_TIMEOUT_MS = 10_000;

const ERROR_ID = 4000;

export class RtDebugSession extends DebugSession {
  private readonly debuggee = new Debuggee(this.eventsOf(MAIN_THREAD_ID));
  /** Worker threads, by DAP thread id (2, 3, ...). */
  private readonly workers = new Map<number, { debuggee: Debuggee; info: WorkerInfo }>();
  private nextThreadId = MAIN_THREAD_ID + 1;
  /** What the client asked for, so that each new worker gets it too. */
  private readonly breakpointSpecs = new Map<string, DebugProtocol.SourceBreakpoint[]>();
  private exceptionFilters: string[] = [];
  private target: DebugTarget | undefined;
  private configured!: Promise<void>;
  private markConfigured!: () => void;
  private terminatedSent = false;
  /** The client starts child sessions on request (DAP's startDebugging reverse request). */
  private startsChildSessions = false;
  /** Children whose startDebugging the client has not answered yet: released if the adapter goes away first. */
  private readonly childrenAsked = new Set<Announcement>();
  /** The client takes `invalidated` events; set to false once the one after the first scopes is sent. */
  private refreshAfterFirstScopes = false;

  constructor(private readonly options: RtDebugSessionOptions = {}) {
    super();
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
    this.resetConfigured();
  }

  // --- setup -------------------------------------------------------------------------------

  /** Every request: arguments checked first (an error answer naming the field), DAP's defaults applied. */
  protected override dispatchRequest(request: DebugProtocol.Request): void {
    const problem = argumentsProblem(request);
    if (problem) return this.refuse(new Response(request), problem);
    // pathFormat is optional, "path" by default (the library refuses a request without it).
    if (request.command === "initialize") request.arguments = { pathFormat: "path", ...request.arguments };
    super.dispatchRequest(request);
  }

  /** A message the client sent that is not DAP (see framing.ts): said once, and the session goes on. */
  protocolError(problem: string): void {
    process.stderr.write(`rt-debug-adapter: ${problem}\n`);
    this.sendEvent(new OutputEvent(`rt debug adapter: ${problem}\n`, "console"));
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse, args: DebugProtocol.InitializeRequestArguments): void {
    this.startsChildSessions = args.supportsStartDebuggingRequest === true;
    this.refreshAfterFirstScopes = args.supportsInvalidatedEvent === true;
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

  protected override setExceptionBreakPointsRequest(
    response: DebugProtocol.SetExceptionBreakpointsResponse,
    args: DebugProtocol.SetExceptionBreakpointsArguments,
  ): void {
    this.handle(response, async () => {
      const unknown = args.filters.filter((filter) => filter !== "all" && filter !== "uncaught");
      if (unknown.length) throw new Error(`unknown exception filter "${unknown[0]}": use "all" or "uncaught"`);
      this.exceptionFilters = args.filters;
      await Promise.all(
        [this.debuggee, ...[...this.workers.values()].map((worker) => worker.debuggee)].map((debuggee) => debuggee.setExceptionFilters(args.filters)),
      );
      return {};
    });
  }

  // --- execution ---------------------------------------------------------------------------

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = {
      threads: [{ id: MAIN_THREAD_ID, name: "main" }, ...[...this.workers].map(([id, { info }]) => ({ id, name: workerName(id, info) }))],
    };
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
    const threadId = threadOf(args.frameId);
    void this.handle(response, async () => ({ scopes: this.thread(threadId).scopes(args.frameId) })).then(() => {
      if (!this.refreshAfterFirstScopes) return;
      this.refreshAfterFirstScopes = false;
      // VS Code opens its Variables view on the first stop (debug.openDebug: openOnDebugBreak)
      // after focusing the frame, so the view, created then, shows every scope collapsed: it
      // expands the first cheap scope only when a frame gets focus while it exists. Its first
      // scopes request says it exists now; this makes VS Code fetch the stack again and focus
      // the new top frame, and the view opens Local (as VS Code's JavaScript debugger shows it).
      this.sendEvent({ event: "invalidated", body: { areas: ["stacks"], threadId }, seq: 0, type: "event" } as DebugProtocol.InvalidatedEvent);
    });
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
    this.handle(response, () =>
      this.thread(args.frameId === undefined ? MAIN_THREAD_ID : threadOf(args.frameId)).evaluate(args.expression, args.frameId, args.context),
    );
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
    this.handle(response, async () => this.target?.stop());
  }

  protected override restartRequest(response: DebugProtocol.RestartResponse): void {
    this.handle(
      response,
      async () => {
        if (!this.target) throw new Error("nothing to restart: the session has not started");
        this.terminatedSent = false;
        await this.target.restart();
        await this.debuggee.run();
      },
      LAUNCH_TIMEOUT_MS,
    );
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse, args: DebugProtocol.DisconnectArguments): void {
    this.handle(response, async () => {
      // A launched program ends unless the client says otherwise; an attached one is left running.
      await this.target?.disconnect(this.target.ownsProcess && args.terminateDebuggee !== false);
      return {};
    });
  }

  // --- targets -----------------------------------------------------------------------------

  private async launch(args: LaunchArguments): Promise<void> {
    await this.startTarget(new LaunchedProgram(args, this.options.runtimeExecutable, this.targetEvents(), (plan) => this.runInTerminal(plan)));
  }

  private async attach(args: AttachArguments): Promise<void> {
    await this.startTarget(new AttachedProgram(args, this.targetEvents()));
  }

  /**
   * Starts the target and answers: the program waits, and runs once the client has set its
   * breakpoints (configurationDone). Not awaited here: a client may wait for launch's answer
   * before it sends its breakpoints, as DAP allows.
   */
  private async startTarget(target: DebugTarget): Promise<void> {
    this.target = target;
    this.terminatedSent = false;
    await target.start();
    // (Nothing to wait for without a debugger: noDebug.)
    if (this.debuggee.connected) void this.runWhenConfigured();
  }

  private async runWhenConfigured(): Promise<void> {
    const configured = await withTimeout(this.configured, CONFIGURATION_TIMEOUT_MS).then(
      () => true,
      () => false,
    );
    if (!configured)
      this.sendEvent(
        new OutputEvent(`rt: no configurationDone within ${CONFIGURATION_TIMEOUT_MS / 1000} s: the program runs with the breakpoints set so far\n`, "console"),
      );
    await this.debuggee.run().catch(() => {});
  }

  private targetEvents(): TargetEvents {
    return {
      connected: (connection) => this.connected(connection),
      disconnected: () => {
        const wasPaused = this.debuggee.isPaused;
        this.debuggee.detached();
        if (wasPaused)
          this.sendEvent({
            event: "continued",
            body: { threadId: MAIN_THREAD_ID, allThreadsContinued: true },
            seq: 0,
            type: "event",
          } as DebugProtocol.ContinuedEvent);
      },
      reattached: async (message) => {
        await this.debuggee.run();
        this.sendEvent(new OutputEvent(message, "console"));
      },
      output: (text, category) => this.sendEvent(new OutputEvent(text, category)),
      exited: (exitCode) => this.sendEvent(new ExitedEvent(exitCode)),
      ended: () => this.sendTerminated(),
      child: (announcement) => this.childStarted(announcement),
    };
  }

  private async connected({ cdp, stopOnEntry, ownsStderr }: MainConnection): Promise<void> {
    await this.debuggee.attach(cdp, { stopOnEntry, ownsStderr });
    followWorkers(cdp, (session, info) => void this.workerStarted(session, info));
  }

  /** A process the program started waits for its debugger: a child session of this one, with the same breakpoints. */
  private childStarted(child: Announcement): void {
    if (!this.startsChildSessions || isToolProcess(child)) {
      void releaseChild(child);
      return;
    }
    const request: DebugProtocol.StartDebuggingRequestArguments = { request: "attach", configuration: childConfiguration(child) };
    this.childrenAsked.add(child);
    this.sendRequest("startDebugging", request, EDITOR_ANSWER_MS, (reply) => {
      if (this.childrenAsked.delete(child) && !reply.success) void releaseChild(child);
    });
  }

  private runInTerminal(plan: LaunchPlan): Promise<number | undefined> {
    return new Promise((resolve, reject) => {
      this.runInTerminalRequest(
        { kind: "integrated", title: "rt", cwd: plan.cwd, args: [plan.executable, ...plan.args], env: plan.envChanges },
        EDITOR_ANSWER_MS,
        (reply) => {
          if (!reply.success) reject(new Error(`the editor could not start rt in a terminal: ${reply.message ?? "no reason given"}`));
          else resolve(reply.body?.processId);
        },
      );
    });
  }

  // --- worker threads ----------------------------------------------------------------------

  /** A worker thread becomes a thread of its own, with every breakpoint set before it runs. */
  private async workerStarted(session: WorkerSession, info: WorkerInfo): Promise<void> {
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
        this.sendEvent({
          event: "continued",
          body: { threadId, allThreadsContinued: threadId === MAIN_THREAD_ID },
          seq: 0,
          type: "event",
        } as DebugProtocol.ContinuedEvent),
      output: (body) => this.sendEvent({ event: "output", body, seq: 0, type: "event" } as DebugProtocol.OutputEvent),
      // The main thread's copy of a breakpoint is the one the editor shows; a worker's copy that
      // is set verifies it.
      breakpointChanged: (breakpoint, index) => {
        if (threadId === MAIN_THREAD_ID)
          this.sendEvent({ event: "breakpoint", body: { reason: "changed", breakpoint }, seq: 0, type: "event" } as DebugProtocol.BreakpointEvent);
        else if (breakpoint.verified && breakpoint.source?.path && breakpoint.line)
          this.debuggee.verifiedElsewhere(breakpoint.source.path, index, breakpoint.line, breakpoint.column);
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
  private handle<R extends DebugProtocol.Response>(
    response: R,
    work: () => Promise<R["body"] | undefined>,
    timeoutMs = REQUEST_TIMEOUT_MS,
    what?: string,
  ): Promise<void> {
    return withTimeout(Promise.resolve().then(work), timeoutMs, `${what ?? response.command} did not finish within ${timeoutMs / 1000} s`).then(
      (body) => {
        if (body) response.body = body;
        this.sendResponse(response);
      },
      (error: unknown) => this.refuse(response, error instanceof Error ? error.message : String(error)),
    );
  }

  private refuse(response: DebugProtocol.Response, message: string): void {
    // As a variable: the library reads {name} in an error's format as one.
    this.sendErrorResponse(response, { id: ERROR_ID, format: "{_message}", variables: { _message: message }, showUser: true });
  }

  override shutdown(): void {
    // A child the client never answered about would wait for a session forever.
    for (const child of this.childrenAsked) void releaseChild(child);
    this.target?.dispose();
    super.shutdown();
  }
}

/**
 * A worker thread's label in the call stack: short, and naming the file it runs (`Worker 1:
 * worker.ts`), numbered as the program's workers are (Node's own ids count rt's threads too).
 */
function workerName(threadId: number, info: WorkerInfo): string {
  const file = decodeURIComponent(info.url.split(/[\\/]/).pop() ?? "");
  return `Worker ${threadId - MAIN_THREAD_ID}${file ? `: ${file}` : ""}`;
}
