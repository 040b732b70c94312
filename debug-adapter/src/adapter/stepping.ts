// Execution control the user asks for: continue, pause and the three steps. A step out keeps the
// function's return value for `$returnValue` (one-shot breakpoints on its returns, see stepOut);
// the pauses those breakpoints make are read here too (returnHit), before stops.ts shows any.
// Covered by: debug-adapter/test/launch.test.mjs ("stepping, evaluate …", "stepOut while stopped
// on a return line …", "pause stops in the program's own code …", "stopOnEntry in a CommonJS file
// stops on its first statement … `next` walks its lines"), workers.test.mjs (a step in a worker),
// children.test.mjs (`next` in a child session).
import type { Protocol } from "devtools-protocol";
import type { HiddenStop } from "rt-runtime/stop-policy";
import type { CdpSession } from "../cdp/connection.js";
import { type CallFrame, ignoreIfClosed, type ThreadState } from "./thread-state.js";

export class Stepping {
  private returnBreakpoints: { ids: string[]; depth: number } | undefined;

  constructor(private readonly thread: ThreadState) {}

  async resume(): Promise<void> {
    this.thread.expectResume = true;
    this.thread.stopPolicy.asked(undefined);
    const cdp = this.thread.requireConnection();
    // A program that runs to its end may close the connection before answering.
    await cdp.send("Debugger.resume", {}).catch(ignoreIfClosed(cdp));
  }

  async step(kind: "over" | "into" | "out"): Promise<void> {
    const cdp = this.thread.requireConnection();
    const paused = this.thread.paused;
    if (!paused) throw new Error("the program is not paused");
    this.thread.expectResume = true;
    this.thread.stopPolicy.asked("step");
    if (kind === "over") await cdp.send("Debugger.stepOver", {}).catch(ignoreIfClosed(cdp));
    else if (kind === "into") await cdp.send("Debugger.stepInto", {}).catch(ignoreIfClosed(cdp));
    else await this.stepOut(cdp, paused.event.callFrames);
  }

  async pause(): Promise<void> {
    this.thread.stopPolicy.asked("pause");
    await this.thread.requireConnection().send("Debugger.pause");
  }

  /**
   * A pause while stepping out: the move that hides it, if it is the step out's own (a return
   * in a deeper call of the same function goes on; the call's return keeps its value and steps
   * out for real). Clears the return breakpoints once the call returned.
   */
  async returnHit(cdp: CdpSession, event: Protocol.Debugger.PausedEvent): Promise<HiddenStop | undefined> {
    if (!this.returnBreakpoints) return undefined;
    const hitIds = event.hitBreakpoints ?? [];
    const returning = hitIds.some((id) => this.returnBreakpoints!.ids.includes(id));
    // The same function deeper in a recursion is not the call being stepped out of.
    if (returning && event.callFrames.length !== this.returnBreakpoints.depth) return "resume";
    await this.clearReturnBreakpoints(cdp);
    if (returning && hitIds.every((id) => !this.thread.breakpoints.isUserBreakpoint(id))) {
      this.thread.lastReturnValue = event.callFrames[0]?.returnValue;
      return "stepOut";
    }
    return undefined;
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
      this.thread.lastReturnValue = top.returnValue;
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
}
