// One connected program (a thread of it) seen through the debugger. The DAP session above it
// speaks to the editor; it speaks CDP to the program; a restarted program is a new connection
// with the same breakpoints. This class is the glue: it owns the thread's state
// (thread-state.ts), wires each CDP event to the part that handles it and hands each request to
// its part: stops.ts (pauses shown or hidden), stepping.ts, inspection.ts (stack, scopes,
// evaluation), console.ts (output), breakpoints.ts and sources.ts.
// Covered by: debug-adapter/test/*.test.mjs (each session attaches and runs a program through it).
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { CdpSession } from "../cdp/connection.js";
import { ConsoleOutput } from "./console.js";
import { Inspection } from "./inspection.js";
import { Stepping } from "./stepping.js";
import { Stops } from "./stops.js";
import { type AttachOptions, type DebuggeeEvents, MAIN_THREAD_ID, ThreadState } from "./thread-state.js";
import type { Variables } from "./variables.js";

export class Debuggee {
  private readonly thread: ThreadState;
  private readonly stepping: Stepping;
  private readonly stops: Stops;
  private readonly inspection: Inspection;
  private readonly output: ConsoleOutput;
  private pauseOnExceptions: "none" | "uncaught" | "all" = "none";

  constructor(events: DebuggeeEvents, threadId = MAIN_THREAD_ID) {
    this.thread = new ThreadState(events, threadId);
    this.stepping = new Stepping(this.thread);
    this.stops = new Stops(this.thread, this.stepping);
    this.inspection = new Inspection(this.thread);
    this.output = new ConsoleOutput(this.thread);
  }

  get variables(): Variables {
    return this.thread.variables;
  }

  get connected(): CdpSession | undefined {
    return this.thread.connected;
  }

  get isPaused(): boolean {
    return this.thread.paused !== undefined;
  }

  /** Takes over a new connection: enables the domains, sets every breakpoint; the program still waits. */
  async attach(cdp: CdpSession, options: AttachOptions): Promise<void> {
    const { thread } = this;
    thread.cdp = cdp;
    thread.options = options;
    thread.sources.clear();
    thread.paused = undefined;
    thread.variables.clearPaused();
    this.stops.attached();
    cdp.on("Debugger.scriptParsed", (event) => this.stops.scriptParsed(cdp, event));
    cdp.on("Debugger.paused", (event) => void this.stops.paused(cdp, event));
    cdp.on("Debugger.resumed", () => this.stops.resumed());
    cdp.on("Debugger.breakpointResolved", ({ breakpointId, location }) =>
      thread.breakpoints.resolved(breakpointId, location.scriptId, location.lineNumber, location.columnNumber),
    );
    cdp.on("Runtime.consoleAPICalled", (event) => this.output.consoleCalled(event));
    cdp.on("Runtime.exceptionThrown", (event) => this.output.uncaught(event));
    // Sent together (answers come in order): the program waits until run() anyway.
    await Promise.all([
      cdp.send("Debugger.enable", {}),
      // Before each script with a source map runs: a pause to set its breakpoints (see stops.ts).
      cdp.send("Debugger.setInstrumentationBreakpoint", {
        instrumentation: options.stopOnEntry ? "beforeScriptExecution" : "beforeScriptWithSourceMapExecution",
      }),
      cdp.send("Debugger.setPauseOnExceptions", { state: this.pauseOnExceptions }),
      thread.breakpoints.reconnect(cdp),
      cdp.send("Runtime.enable"),
    ]);
  }

  /** Lets a program started with --inspect-wait run (harmless for one already running). */
  async run(): Promise<void> {
    await this.thread.connected?.send("Runtime.runIfWaitingForDebugger");
  }

  detached(): void {
    this.thread.cdp = undefined;
    this.thread.paused = undefined;
    this.thread.variables.clearPaused();
  }

  async setBreakpoints(file: string, requested: readonly DebugProtocol.SourceBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
    const { breakpoints } = this.thread;
    const created = await breakpoints.set(file, requested, this.thread.connected);
    return created.map((breakpoint) => breakpoints.toDap(breakpoint));
  }

  /** Another thread's copy of a breakpoint was set: this copy (the one the editor shows) is verified too. */
  verifiedElsewhere(file: string, index: number, line: number, column: number | undefined): void {
    this.thread.breakpoints.verifiedElsewhere(file, index, line, column);
  }

  async setExceptionFilters(filters: readonly string[]): Promise<void> {
    this.pauseOnExceptions = filters.includes("all") ? "all" : filters.includes("uncaught") ? "uncaught" : "none";
    await this.thread.connected?.send("Debugger.setPauseOnExceptions", { state: this.pauseOnExceptions });
  }

  // --- execution control: stepping.ts ----------------------------------------------------------

  resume(): Promise<void> {
    return this.stepping.resume();
  }

  step(kind: "over" | "into" | "out"): Promise<void> {
    return this.stepping.step(kind);
  }

  pause(): Promise<void> {
    return this.stepping.pause();
  }

  // --- inspection: inspection.ts ---------------------------------------------------------------

  stackTrace(startFrame?: number, levels?: number): { stackFrames: DebugProtocol.StackFrame[]; totalFrames: number } {
    return this.inspection.stackTrace(startFrame, levels);
  }

  scopes(frameId: number): DebugProtocol.Scope[] {
    return this.inspection.scopes(frameId);
  }

  evaluate(expression: string, frameId: number | undefined, context: string | undefined): Promise<DebugProtocol.EvaluateResponse["body"]> {
    return this.inspection.evaluate(expression, frameId, context);
  }

  completions(text: string, column: number, frameId: number | undefined): Promise<DebugProtocol.CompletionItem[]> {
    return this.inspection.completions(text, column, frameId);
  }

  exceptionInfo(): DebugProtocol.ExceptionInfoResponse["body"] {
    return this.inspection.exceptionInfo();
  }

  sourceText(reference: number): Promise<string> {
    return this.inspection.sourceText(reference);
  }

  setVariable(reference: number, name: string, expression: string, frameId: number | undefined): Promise<DebugProtocol.Variable> {
    return this.inspection.setVariable(reference, name, expression, frameId);
  }
}
