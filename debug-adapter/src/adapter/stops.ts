// The program's pauses and resumes as the user sees them. Each parsed script gets its breakpoints
// while the program is held before it runs (instrumentation pauses, hidden), which also arm the
// entry stop; a pause is then hidden (rt's or Node's code, a logpoint, a hit count not reached, a
// step out's return) or shown as a `stopped` event with its reason; a resume the user did not ask
// for is a `continued` event.
// Covered by: debug-adapter/test/launch.test.mjs ("breakpoints in app.ts and in lazily imported
// lazy.ts …", "a CommonJS file …", the stopOnEntry tests, "conditional and hit-count breakpoints,
// logpoints …", "pause stops in the program's own code …", "… exception breakpoints: all, then
// uncaught only"), workers.test.mjs (a worker's thread stops), children.test.mjs.
import * as path from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { Protocol } from "devtools-protocol";
import { type HiddenStop, isHoldingStop } from "rt-runtime/stop-policy";
import type { CdpSession } from "../cdp/connection.js";
import { isInternal } from "./internal.js";
import { normalise, type Script } from "./sources.js";
import type { Stepping } from "./stepping.js";
import { type CallFrame, MAIN_THREAD_ID, type RemoteObject, type ThreadState } from "./thread-state.js";

const HIDDEN_STOP = { resume: "Debugger.resume", stepOut: "Debugger.stepOut", stepInto: "Debugger.stepInto" } as const satisfies Record<HiddenStop, string>;

export class Stops {
  private nextFrameId: number;
  private hiddenResumes = 0;
  private readonly scriptWork = new Map<string, Promise<void>>();
  private entry: { pending: boolean; target: string | boolean; breakpointId?: string } = { pending: false, target: false };

  constructor(
    private readonly thread: ThreadState,
    private readonly stepping: Stepping,
  ) {
    this.nextFrameId = thread.idBase + 1;
  }

  /** A new connection: nothing held, the entry stop armed as the thread's options ask. */
  attached(): void {
    const { stopOnEntry } = this.thread.options;
    this.scriptWork.clear();
    this.hiddenResumes = 0;
    this.entry = { pending: Boolean(stopOnEntry), target: stopOnEntry ?? false };
  }

  scriptParsed(cdp: CdpSession, event: Protocol.Debugger.ScriptParsedEvent): void {
    const script = this.thread.sources.add(event);
    this.scriptWork.set(script.scriptId, this.thread.breakpoints.scriptLoaded(script, cdp));
  }

  async paused(cdp: CdpSession, event: Protocol.Debugger.PausedEvent): Promise<void> {
    if (isHoldingStop(event)) {
      if (event.reason === "instrumentation") await this.beforeScript(cdp, event);
      // (Otherwise a worker that waited for its debugger, at its first statement.)
      return this.hide(cdp, "resume");
    }
    const hitIds = event.hitBreakpoints ?? [];
    const returned = await this.stepping.returnHit(cdp, event);
    if (returned) return this.hide(cdp, returned);
    const decision = this.thread.stopPolicy.decide(event);
    if ("hide" in decision) return this.hide(cdp, decision.hide);
    const { breakpoints } = this.thread;
    let reason: DebugProtocol.StoppedEvent["body"]["reason"];
    if (this.entry.breakpointId && hitIds.includes(this.entry.breakpointId)) {
      await cdp.send("Debugger.removeBreakpoint", { breakpointId: this.entry.breakpointId }).catch(() => {});
      this.entry.breakpointId = undefined;
      reason = "entry";
    } else if (hitIds.length > 0) {
      if (!breakpoints.hit(hitIds).shouldStop) return this.hide(cdp, "resume");
      reason = "breakpoint";
    } else if (event.reason === "exception" || event.reason === "promiseRejection") {
      reason = "exception";
    } else {
      reason = decision.show ?? (event.reason === "other" ? "debugger statement" : "pause");
    }
    const frames = new Map<number, CallFrame>();
    for (const frame of event.callFrames) frames.set(this.nextFrameId++, frame);
    if (event.callFrames[0]?.returnValue) this.thread.lastReturnValue = event.callFrames[0].returnValue;
    else if (reason !== "step") this.thread.lastReturnValue = undefined;
    this.thread.paused = { event, frames };
    const { threadId } = this.thread;
    const body: DebugProtocol.StoppedEvent["body"] = { reason, threadId, allThreadsStopped: threadId === MAIN_THREAD_ID };
    if (reason === "exception") {
      const exception = event.data as RemoteObject | undefined;
      body.description = "Paused on exception";
      body.text = exception?.description?.split("\n")[0] ?? String(exception?.value);
    }
    if (reason === "breakpoint") {
      body.hitBreakpointIds = breakpoints
        .all()
        .filter((b) => [...b.v8Ids].some((id) => hitIds.includes(id)))
        .map((b) => b.id);
    }
    this.thread.events.stopped(body);
  }

  resumed(): void {
    if (this.hiddenResumes > 0) {
      this.hiddenResumes--;
      return;
    }
    this.thread.paused = undefined;
    this.thread.variables.clearPaused();
    if (!this.thread.expectResume) this.thread.events.continued();
    this.thread.expectResume = false;
  }

  /** A script is about to run: its breakpoints are set (scriptParsed came first), and the entry stop armed. */
  private async beforeScript(cdp: CdpSession, event: Protocol.Debugger.PausedEvent): Promise<void> {
    const scriptId = (event.data as { scriptId?: string } | undefined)?.scriptId ?? event.callFrames[0]?.location.scriptId;
    await (scriptId ? this.scriptWork.get(scriptId) : undefined)?.catch(() => {});
    const script = scriptId ? this.thread.sources.get(scriptId) : undefined;
    if (this.entry.pending && script && this.isEntry(script) && event.callFrames[0]) {
      // Steps don't work from an instrumentation stop: a breakpoint on the same spot is the entry stop.
      this.entry.pending = false;
      const result = await cdp.send("Debugger.setBreakpoint", { location: event.callFrames[0].location }).catch(() => undefined);
      this.entry.breakpointId = result?.breakpointId;
      await cdp.send("Debugger.setInstrumentationBreakpoint", { instrumentation: "beforeScriptWithSourceMapExecution" }).catch(() => {});
    }
  }

  /** Moves on from a stop the user does not see (nor the `resumed` event that follows it). */
  private async hide(cdp: CdpSession, move: HiddenStop): Promise<void> {
    this.hiddenResumes++;
    await cdp.send(HIDDEN_STOP[move]).catch(() => {});
  }

  private isEntry(script: Script): boolean {
    const target = this.entry.target;
    if (typeof target === "string") return script.file !== undefined && normalise(script.file) === normalise(target);
    return script.file !== undefined && !isInternal(script.url) && !script.file.includes(`${path.sep}node_modules${path.sep}`);
  }
}
