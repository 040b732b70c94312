// One connected program seen through the debugger: its scripts, the user's breakpoints in them,
// pauses (and the instrumentation pauses that hold each new script until its breakpoints are
// set), stacks in original positions, scopes, variables, evaluation and console output. The DAP
// session above it speaks to the editor; it speaks CDP to the program; a restarted program is a
// new connection with the same breakpoints.
import * as path from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { Protocol } from "devtools-protocol";
import { isHoldingStop, StopPolicy } from "rt-runtime/stop-policy";
import type { CdpSession } from "../cdp/connection.js";
import { Breakpoints } from "./breakpoints.js";
import { consoleCategory, formatConsoleArgs } from "./console.js";
import { isInternal } from "./internal.js";
import { Sources, normalise, type Script } from "./sources.js";
import { Variables } from "./variables.js";

type CallFrame = Protocol.Debugger.CallFrame;
type RemoteObject = Protocol.Runtime.RemoteObject;

export interface DebuggeeEvents {
  stopped(body: DebugProtocol.StoppedEvent["body"]): void;
  continued(): void;
  output(body: DebugProtocol.OutputEvent["body"]): void;
  /** `index`: the breakpoint's place among its file's, as the client listed them. */
  breakpointChanged(breakpoint: DebugProtocol.Breakpoint, index: number): void;
}

export interface AttachOptions {
  /** Stop before the first statement of this file (launch) or of the first user file (true). */
  readonly stopOnEntry?: string | boolean;
  /** When this adapter shows the program's stderr itself, uncaught errors are already there. */
  readonly ownsStderr: boolean;
  /** Show console calls (a worker's reach the main thread's stdout anyway). */
  readonly console?: boolean;
}

interface Paused {
  readonly event: Protocol.Debugger.PausedEvent;
  readonly frames: Map<number, CallFrame>;
}

export const MAIN_THREAD_ID = 1;

/** Each thread's frame, variable and source ids lie in a range of their own. */
const THREAD_ID_SPACE = 10_000_000;

/** The thread a frame id, variables reference or source reference belongs to. */
export function threadOf(id: number): number {
  return Math.floor(id / THREAD_ID_SPACE) + MAIN_THREAD_ID;
}

export class Debuggee {
  private cdp: CdpSession | undefined;
  private readonly sources: Sources;
  private readonly breakpoints: Breakpoints;
  readonly variables: Variables;
  private paused: Paused | undefined;
  private nextFrameId: number;
  private hiddenResumes = 0;
  private expectResume = false;
  /** Which stops the user sees; a pause or step goes on through Node's and rt's code. */
  private readonly stops = new StopPolicy<CallFrame>((frame) => !this.isInternalFrame(frame));
  private readonly scriptWork = new Map<string, Promise<void>>();
  private entry: { pending: boolean; target: string | boolean; breakpointId?: string } = { pending: false, target: false };
  private pauseOnExceptions: "none" | "uncaught" | "all" = "none";
  private lastReturnValue: RemoteObject | undefined;
  private returnBreakpoints: { ids: string[]; depth: number } | undefined;
  private options: AttachOptions = { ownsStderr: true };

  constructor(
    private readonly events: DebuggeeEvents,
    readonly threadId = MAIN_THREAD_ID,
  ) {
    const base = (threadId - MAIN_THREAD_ID) * THREAD_ID_SPACE;
    this.sources = new Sources(base);
    this.variables = new Variables(() => this.cdp, base);
    this.nextFrameId = base + 1;
    this.breakpoints = new Breakpoints(this.sources, (breakpoint) =>
      this.events.breakpointChanged(this.breakpoints.toDap(breakpoint), this.breakpoints.indexInFile(breakpoint)),
    );
  }

  get connected(): CdpSession | undefined {
    return this.cdp && !this.cdp.isClosed ? this.cdp : undefined;
  }

  get isPaused(): boolean {
    return this.paused !== undefined;
  }

  /** Takes over a new connection: enables the domains, sets every breakpoint; the program still waits. */
  async attach(cdp: CdpSession, options: AttachOptions): Promise<void> {
    this.cdp = cdp;
    this.options = options;
    this.sources.clear();
    this.scriptWork.clear();
    this.paused = undefined;
    this.hiddenResumes = 0;
    this.variables.clearPaused();
    this.entry = { pending: Boolean(options.stopOnEntry), target: options.stopOnEntry ?? false };
    cdp.on("Debugger.scriptParsed", (event) => this.scriptParsed(cdp, event));
    cdp.on("Debugger.paused", (event) => void this.onPaused(cdp, event));
    cdp.on("Debugger.resumed", () => this.onResumed());
    cdp.on("Debugger.breakpointResolved", ({ breakpointId, location }) =>
      this.breakpoints.resolved(breakpointId, location.scriptId, location.lineNumber, location.columnNumber),
    );
    cdp.on("Runtime.consoleAPICalled", (event) => this.console(event));
    cdp.on("Runtime.exceptionThrown", (event) => this.uncaught(event));
    // Sent together (answers come in order): the program waits until run() anyway.
    await Promise.all([
      cdp.send("Debugger.enable", {}),
      // Before each script with a source map runs: a pause to set its breakpoints (see onPaused).
      cdp.send("Debugger.setInstrumentationBreakpoint", {
        instrumentation: options.stopOnEntry ? "beforeScriptExecution" : "beforeScriptWithSourceMapExecution",
      }),
      cdp.send("Debugger.setPauseOnExceptions", { state: this.pauseOnExceptions }),
      this.breakpoints.reconnect(cdp),
      cdp.send("Runtime.enable"),
    ]);
  }

  /** Lets a program started with --inspect-wait run (harmless for one already running). */
  async run(): Promise<void> {
    await this.connected?.send("Runtime.runIfWaitingForDebugger");
  }

  detached(): void {
    this.cdp = undefined;
    this.paused = undefined;
    this.variables.clearPaused();
  }

  async setBreakpoints(file: string, requested: readonly DebugProtocol.SourceBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
    const created = await this.breakpoints.set(file, requested, this.connected);
    return created.map((breakpoint) => this.breakpoints.toDap(breakpoint));
  }

  /** Another thread's copy of a breakpoint was set: this copy (the one the editor shows) is verified too. */
  verifiedElsewhere(file: string, index: number, line: number, column: number | undefined): void {
    this.breakpoints.verifiedElsewhere(file, index, line, column);
  }

  async setExceptionFilters(filters: readonly string[]): Promise<void> {
    this.pauseOnExceptions = filters.includes("all") ? "all" : filters.includes("uncaught") ? "uncaught" : "none";
    await this.connected?.send("Debugger.setPauseOnExceptions", { state: this.pauseOnExceptions });
  }

  // --- execution control -------------------------------------------------------------------

  async resume(): Promise<void> {
    this.expectResume = true;
    this.stops.asked(undefined);
    const cdp = this.requireConnection();
    // A program that runs to its end may close the connection before answering.
    await cdp.send("Debugger.resume", {}).catch(ignoreIfClosed(cdp));
  }

  async step(kind: "over" | "into" | "out"): Promise<void> {
    const cdp = this.requireConnection();
    if (!this.paused) throw new Error("the program is not paused");
    this.expectResume = true;
    this.stops.asked("step");
    if (kind === "over") await cdp.send("Debugger.stepOver", {}).catch(ignoreIfClosed(cdp));
    else if (kind === "into") await cdp.send("Debugger.stepInto", {}).catch(ignoreIfClosed(cdp));
    else await this.stepOut(cdp, this.paused.event.callFrames);
  }

  /**
   * Step out that keeps the function's return value ($returnValue in the caller): V8 reports a
   * return value only when paused at the function's return, so the function's return positions
   * get one-shot breakpoints; at the hit (in this same call, not a deeper recursive one) the
   * value is kept and the real step out follows.
   */
  private async stepOut(cdp: CdpSession, frames: readonly CallFrame[]): Promise<void> {
    const top = frames[0]!;
    if (top.returnValue) {
      // Stopped on the return itself (a breakpoint or step landed on it): a breakpoint armed here
      // would never be hit again in this call, so the value is already the one to keep.
      this.lastReturnValue = top.returnValue;
      await cdp.send("Debugger.stepOut").catch(ignoreIfClosed(cdp));
      return;
    }
    const { locations } = await cdp
      .send("Debugger.getPossibleBreakpoints", { start: top.location, restrictToFunction: true })
      .catch(() => ({ locations: [] as Protocol.Debugger.BreakLocation[] }));
    const ids: string[] = [];
    for (const location of locations.filter((candidate) => candidate.type === "return")) {
      const result = await cdp.send("Debugger.setBreakpoint", { location }).catch(() => undefined);
      if (result) ids.push(result.breakpointId);
    }
    if (ids.length === 0) {
      await cdp.send("Debugger.stepOut").catch(ignoreIfClosed(cdp));
      return;
    }
    this.returnBreakpoints = { ids, depth: frames.length };
    await cdp.send("Debugger.resume", {}).catch(ignoreIfClosed(cdp));
  }

  private async clearReturnBreakpoints(cdp: CdpSession): Promise<void> {
    const ids = this.returnBreakpoints?.ids ?? [];
    this.returnBreakpoints = undefined;
    await Promise.all(ids.map((breakpointId) => cdp.send("Debugger.removeBreakpoint", { breakpointId }).catch(() => {})));
  }

  async pause(): Promise<void> {
    this.stops.asked("pause");
    await this.requireConnection().send("Debugger.pause");
  }

  // --- inspection ----------------------------------------------------------------------------

  stackTrace(startFrame = 0, levels = 0): { stackFrames: DebugProtocol.StackFrame[]; totalFrames: number } {
    if (!this.paused) return { stackFrames: [], totalFrames: 0 };
    const all = [...this.paused.frames.entries()];
    const wanted = levels > 0 ? all.slice(startFrame, startFrame + levels) : all.slice(startFrame);
    return { stackFrames: wanted.map(([id, frame]) => this.stackFrame(id, frame)), totalFrames: all.length };
  }

  scopes(frameId: number): DebugProtocol.Scope[] {
    const frame = this.frame(frameId);
    const top = this.paused!.event.callFrames[0] === frame;
    return frame.scopeChain.map((scope, scopeNumber) => {
      const extras: { name: string; value: RemoteObject }[] = [];
      if (scope.type === "local") {
        const returned = frame.returnValue ?? (top ? this.lastReturnValue : undefined);
        if (returned) extras.push({ name: "$returnValue", value: returned });
        if (frame.this.type !== "undefined") extras.push({ name: "this", value: frame.this });
      }
      const dapScope: DebugProtocol.Scope = {
        name: scopeName(scope),
        variablesReference: this.variables.scope(scope.object, frame.callFrameId, scopeNumber, extras),
        expensive: scope.type === "global",
      };
      if (scope.type === "local") dapScope.presentationHint = "locals";
      const start =
        scope.startLocation && this.sources.toOriginal(scope.startLocation.scriptId, scope.startLocation.lineNumber, scope.startLocation.columnNumber);
      if (start?.path) {
        dapScope.source = { name: path.basename(start.path), path: start.path };
        dapScope.line = start.line;
      }
      return dapScope;
    });
  }

  async evaluate(expression: string, frameId: number | undefined, context: string | undefined): Promise<DebugProtocol.EvaluateResponse["body"]> {
    const cdp = this.requireConnection();
    const persistent = context === "repl";
    if (expression.trim() === "$returnValue" && this.paused) {
      const returned = this.paused.event.callFrames[0]?.returnValue ?? this.lastReturnValue;
      if (returned) return asEvaluateBody(this.variables.variable("$returnValue", returned, "$returnValue", persistent));
    }
    const frame = frameId !== undefined && this.paused ? this.frame(frameId) : undefined;
    const common = { expression, objectGroup: "dap", generatePreview: true, includeCommandLineAPI: context === "repl", throwOnSideEffect: context === "hover" };
    const { result, exceptionDetails } = frame
      ? await cdp.send("Debugger.evaluateOnCallFrame", { ...common, callFrameId: frame.callFrameId })
      : await cdp.send("Runtime.evaluate", { ...common, replMode: context === "repl", awaitPromise: context === "repl" });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description?.split("\n")[0] ?? exceptionDetails.text);
    return asEvaluateBody(this.variables.variable("", result, expression, persistent));
  }

  /** The value an expression typed in setVariable / setExpression stands for, in the frame. */
  async valueOf(expression: string, frameId: number | undefined): Promise<RemoteObject> {
    const cdp = this.requireConnection();
    const frame = frameId !== undefined && this.paused ? this.frame(frameId) : this.paused?.event.callFrames[0];
    const { result, exceptionDetails } = frame
      ? await cdp.send("Debugger.evaluateOnCallFrame", { expression, callFrameId: frame.callFrameId })
      : await cdp.send("Runtime.evaluate", { expression });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description?.split("\n")[0] ?? exceptionDetails.text);
    return result;
  }

  async completions(text: string, column: number, frameId: number | undefined): Promise<DebugProtocol.CompletionItem[]> {
    const cdp = this.requireConnection();
    const before = text.slice(0, Math.max(0, column - 1));
    const match = /(?:([\w$\].)]+(?:\([^()]*\))?)\.)?([\w$]*)$/.exec(before)!;
    const [, objectExpression, prefix = ""] = match;
    const frame = frameId !== undefined && this.paused ? this.frame(frameId) : undefined;
    const names = new Map<string, string>();
    const namesOf = async (objectId: string, type: string) => {
      const { result } = await cdp.send("Runtime.callFunctionOn", {
        objectId,
        functionDeclaration:
          "function () { const names = new Set(); for (let o = this; o != null; o = Object.getPrototypeOf(o)) for (const n of Object.getOwnPropertyNames(o)) names.add(n); return [...names].filter(n => !/^\\d+$/.test(n)); }",
        returnByValue: true,
      });
      for (const name of (result.value as string[]) ?? []) if (!names.has(name)) names.set(name, type);
    };
    if (objectExpression) {
      const target = await this.valueOf(objectExpression, frameId).catch(() => undefined);
      if (target?.objectId) await namesOf(target.objectId, "property");
      else if (target && target.type !== "undefined" && target.subtype !== "null") {
        const boxed = await cdp.send("Runtime.evaluate", { expression: `Object(${JSON.stringify(target.value)})` });
        if (boxed.result.objectId) await namesOf(boxed.result.objectId, "property");
      }
    } else {
      for (const scope of frame?.scopeChain ?? []) {
        if (scope.type === "global" || !scope.object.objectId) continue;
        const { result } = await cdp.send("Runtime.getProperties", { objectId: scope.object.objectId, ownProperties: true });
        for (const property of result) if (!names.has(property.name)) names.set(property.name, "variable");
      }
      const lexical = await cdp.send("Runtime.globalLexicalScopeNames", {}).catch(() => ({ names: [] as string[] }));
      for (const name of lexical.names) if (!names.has(name)) names.set(name, "variable");
      const global = await cdp.send("Runtime.evaluate", { expression: "globalThis" });
      if (global.result.objectId) await namesOf(global.result.objectId, "property");
    }
    return [...names]
      .filter(([name]) => name.startsWith(prefix))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([label, type]) => ({ label, type: type as DebugProtocol.CompletionItemType, start: column - 1 - prefix.length, length: prefix.length }));
  }

  exceptionInfo(): DebugProtocol.ExceptionInfoResponse["body"] {
    const event = this.paused?.event;
    if (!event || (event.reason !== "exception" && event.reason !== "promiseRejection")) throw new Error("the program is not stopped on an exception");
    const exception = event.data as RemoteObject | undefined;
    const description = exception?.description ?? (exception ? String(exception.value) : "exception");
    return {
      exceptionId: exception?.className ?? "Error",
      description: description.split("\n")[0],
      breakMode: event.data?.uncaught ? "unhandled" : "always",
      details: { message: description.split("\n")[0], stackTrace: description },
    };
  }

  async sourceText(reference: number): Promise<string> {
    const script = this.sources.byReferenceId(reference);
    if (!script) throw new Error("this source is gone: the program that had it ended");
    return (await this.requireConnection().send("Debugger.getScriptSource", { scriptId: script.scriptId })).scriptSource;
  }

  async setVariable(reference: number, name: string, expression: string, frameId: number | undefined): Promise<DebugProtocol.Variable> {
    const value = await this.valueOf(expression, frameId);
    return this.variables.set(reference, name, value);
  }

  // --- events from the program ---------------------------------------------------------------

  private scriptParsed(cdp: CdpSession, event: Protocol.Debugger.ScriptParsedEvent): void {
    const script = this.sources.add(event);
    this.scriptWork.set(script.scriptId, this.breakpoints.scriptLoaded(script, cdp));
  }

  private async onPaused(cdp: CdpSession, event: Protocol.Debugger.PausedEvent): Promise<void> {
    if (isHoldingStop(event)) {
      if (event.reason === "instrumentation") await this.beforeScript(cdp, event);
      // (Otherwise a worker that waited for its debugger, at its first statement.)
      return this.hide(cdp, "Debugger.resume");
    }
    const hitIds = event.hitBreakpoints ?? [];
    if (this.returnBreakpoints) {
      const returning = hitIds.some((id) => this.returnBreakpoints!.ids.includes(id));
      // The same function deeper in a recursion is not the call being stepped out of.
      if (returning && event.callFrames.length !== this.returnBreakpoints.depth) return this.hide(cdp, "Debugger.resume");
      await this.clearReturnBreakpoints(cdp);
      if (returning && hitIds.every((id) => !this.breakpoints.isUserBreakpoint(id))) {
        this.lastReturnValue = event.callFrames[0]?.returnValue;
        return this.hide(cdp, "Debugger.stepOut");
      }
    }
    const decision = this.stops.decide(event);
    if ("hide" in decision) return this.hide(cdp, HIDDEN_STOP[decision.hide]);
    let reason: DebugProtocol.StoppedEvent["body"]["reason"];
    if (this.entry.breakpointId && hitIds.includes(this.entry.breakpointId)) {
      await cdp.send("Debugger.removeBreakpoint", { breakpointId: this.entry.breakpointId }).catch(() => {});
      this.entry.breakpointId = undefined;
      reason = "entry";
    } else if (hitIds.length > 0) {
      if (!this.breakpoints.hit(hitIds).shouldStop) return this.hide(cdp, "Debugger.resume");
      reason = "breakpoint";
    } else if (event.reason === "exception" || event.reason === "promiseRejection") {
      reason = "exception";
    } else {
      reason = decision.show ?? (event.reason === "other" ? "debugger statement" : "pause");
    }
    const frames = new Map<number, CallFrame>();
    for (const frame of event.callFrames) frames.set(this.nextFrameId++, frame);
    if (event.callFrames[0]?.returnValue) this.lastReturnValue = event.callFrames[0].returnValue;
    else if (reason !== "step") this.lastReturnValue = undefined;
    this.paused = { event, frames };
    const body: DebugProtocol.StoppedEvent["body"] = { reason, threadId: this.threadId, allThreadsStopped: this.threadId === MAIN_THREAD_ID };
    if (reason === "exception") {
      const exception = event.data as RemoteObject | undefined;
      body.description = "Paused on exception";
      body.text = exception?.description?.split("\n")[0] ?? String(exception?.value);
    }
    if (reason === "breakpoint") {
      body.hitBreakpointIds = this.breakpoints
        .all()
        .filter((b) => [...b.v8Ids].some((id) => hitIds.includes(id)))
        .map((b) => b.id);
    }
    this.events.stopped(body);
  }

  /** A script is about to run: its breakpoints are set (scriptParsed came first), and the entry stop armed. */
  private async beforeScript(cdp: CdpSession, event: Protocol.Debugger.PausedEvent): Promise<void> {
    const scriptId = (event.data as { scriptId?: string } | undefined)?.scriptId ?? event.callFrames[0]?.location.scriptId;
    await (scriptId ? this.scriptWork.get(scriptId) : undefined)?.catch(() => {});
    const script = scriptId ? this.sources.get(scriptId) : undefined;
    if (this.entry.pending && script && this.isEntry(script) && event.callFrames[0]) {
      // Steps don't work from an instrumentation stop: a breakpoint on the same spot is the entry stop.
      this.entry.pending = false;
      const result = await cdp.send("Debugger.setBreakpoint", { location: event.callFrames[0].location }).catch(() => undefined);
      this.entry.breakpointId = result?.breakpointId;
      await cdp.send("Debugger.setInstrumentationBreakpoint", { instrumentation: "beforeScriptWithSourceMapExecution" }).catch(() => {});
    }
  }

  /** Moves on from a stop the user does not see (nor the `resumed` event that follows it). */
  private async hide(cdp: CdpSession, move: (typeof HIDDEN_STOP)[keyof typeof HIDDEN_STOP]): Promise<void> {
    this.hiddenResumes++;
    await cdp.send(move).catch(() => {});
  }

  private onResumed(): void {
    if (this.hiddenResumes > 0) {
      this.hiddenResumes--;
      return;
    }
    this.paused = undefined;
    this.variables.clearPaused();
    if (!this.expectResume) this.events.continued();
    this.expectResume = false;
  }

  private console(event: Protocol.Runtime.ConsoleAPICalledEvent): void {
    if (event.type === "clear" || this.options.console === false) return;
    const group =
      event.type === "startGroup" ? "start" : event.type === "startGroupCollapsed" ? "startCollapsed" : event.type === "endGroup" ? "end" : undefined;
    let output = formatConsoleArgs(event.args);
    if (event.type === "assert") output = `Assertion failed${output ? `: ${output}` : ""}`;
    if (event.type === "trace") output = `Trace${output ? `: ${output}` : ""}\n${this.stackText(event.stackTrace)}`;
    const body: DebugProtocol.OutputEvent["body"] = { category: consoleCategory(event.type), output: `${output}\n` };
    if (group) body.group = group;
    const expandable = event.args.some((arg) => arg.objectId && (arg.type === "object" || arg.type === "function") && arg.subtype !== "null");
    if (expandable)
      body.variablesReference = this.variables.values(
        event.args.map((value, index) => ({ name: String(index), value })),
        true,
      );
    Object.assign(body, this.callerLocation(event.stackTrace));
    this.events.output(body);
  }

  /** Uncaught errors: shown from the debugger only when this adapter doesn't show the program's stderr. */
  private uncaught(event: Protocol.Runtime.ExceptionThrownEvent): void {
    if (this.options.ownsStderr) return;
    const details = event.exceptionDetails;
    this.events.output({
      category: "stderr",
      output: `Uncaught ${details.exception?.description ?? details.text}\n`,
      ...this.callerLocation(details.stackTrace),
    });
  }

  private callerLocation(stack: Protocol.Runtime.StackTrace | undefined): Partial<DebugProtocol.OutputEvent["body"]> {
    const top = stack?.callFrames[0];
    if (!top) return {};
    const logpoint = this.breakpoints.byLogpointUrl(top.url);
    if (logpoint)
      return {
        source: { name: path.basename(logpoint.file), path: logpoint.file },
        line: logpoint.actualLine ?? logpoint.line,
        column: logpoint.actualColumn ?? 1,
      };
    const original = this.sources.toOriginal(top.scriptId, top.lineNumber, top.columnNumber);
    if (!original) return {};
    return { source: this.dapSource(original.script, original.path), line: original.line, column: original.column };
  }

  private stackText(stack: Protocol.Runtime.StackTrace | undefined): string {
    return (stack?.callFrames ?? [])
      .map((frame) => {
        const original = this.sources.toOriginal(frame.scriptId, frame.lineNumber, frame.columnNumber);
        const where = original?.path
          ? `${original.path}:${original.line}:${original.column}`
          : `${frame.url}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
        return `    at ${frame.functionName || "<anonymous>"} (${where})`;
      })
      .join("\n");
  }

  // --- helpers -------------------------------------------------------------------------------

  private stackFrame(id: number, frame: CallFrame): DebugProtocol.StackFrame {
    const original = this.sources.toOriginal(frame.location.scriptId, frame.location.lineNumber, frame.location.columnNumber);
    const stackFrame: DebugProtocol.StackFrame = {
      id,
      name: frame.functionName || "<anonymous>",
      line: original?.line ?? frame.location.lineNumber + 1,
      column: original?.column ?? (frame.location.columnNumber ?? 0) + 1,
    };
    if (original) stackFrame.source = this.dapSource(original.script, original.path);
    // (CallFrame.url is empty in current V8: the script knows its URL.)
    if (this.isInternalFrame(frame)) stackFrame.presentationHint = "subtle";
    return stackFrame;
  }

  private dapSource(script: Script, file: string | undefined): DebugProtocol.Source {
    if (file) {
      const source: DebugProtocol.Source = { name: path.basename(file), path: file };
      if (isInternal(script.url)) source.presentationHint = "deemphasize";
      return source;
    }
    return { name: script.url || `script ${script.scriptId}`, sourceReference: this.sources.referenceFor(script), presentationHint: "deemphasize" };
  }

  private isInternalFrame(frame: CallFrame): boolean {
    return isInternal(this.sources.get(frame.location.scriptId)?.url ?? frame.url);
  }

  private isEntry(script: Script): boolean {
    const target = this.entry.target;
    if (typeof target === "string") return script.file !== undefined && normalise(script.file) === normalise(target);
    return script.file !== undefined && !isInternal(script.url) && !script.file.includes(`${path.sep}node_modules${path.sep}`);
  }

  private frame(frameId: number): CallFrame {
    const frame = this.paused?.frames.get(frameId);
    if (!frame) throw new Error(`no stack frame ${frameId}: the program is not paused there any more`);
    return frame;
  }

  private requireConnection(): CdpSession {
    const cdp = this.connected;
    if (!cdp) throw new Error("the program is not connected");
    return cdp;
  }
}

const HIDDEN_STOP = { resume: "Debugger.resume", stepOut: "Debugger.stepOut", stepInto: "Debugger.stepInto" } as const;

function ignoreIfClosed(cdp: CdpSession): (error: unknown) => void {
  return (error) => {
    if (!cdp.isClosed) throw error;
  };
}

function scopeName(scope: Protocol.Debugger.Scope): string {
  const names: Record<string, string> = {
    local: "Local",
    closure: "Closure",
    module: "Module",
    global: "Global",
    block: "Block",
    script: "Script",
    catch: "Catch",
    with: "With",
    eval: "Eval",
  };
  const base = names[scope.type] ?? scope.type;
  return scope.type === "closure" && scope.name ? `${base} (${scope.name})` : base;
}

function asEvaluateBody(variable: DebugProtocol.Variable): DebugProtocol.EvaluateResponse["body"] {
  return {
    result: variable.value,
    type: variable.type,
    variablesReference: variable.variablesReference,
    ...(variable.indexedVariables ? { indexedVariables: variable.indexedVariables } : {}),
  };
}
