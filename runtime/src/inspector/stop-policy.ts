// Which of V8's pauses a debugger user sees, which are hidden and resumed, and which are stepped
// past into the program's own code. One policy for every client rt ships: the inspector's bridge
// (worker.ts), its web debugger (ui/app.ts) and the debug adapter (through `rt-runtime/stop-policy`).
// Pure: no Node or browser API, so the page and the adapter bundle it as it is.

export interface PausedFrame {
  readonly location: { readonly scriptId: string; readonly lineNumber: number; readonly columnNumber?: number };
}

/** The parts of a Debugger.paused event the policy reads. */
export interface PausedEvent<Frame extends PausedFrame = PausedFrame> {
  readonly reason: string;
  readonly callFrames: readonly Frame[];
  readonly hitBreakpoints?: readonly string[];
  readonly data?: unknown;
}

/** How far a pause or step goes on through code that is not the program's before it stops there anyway. */
export const MAX_SKIPPED_STEPS = 1000;

/**
 * A pause a debugger makes to hold code until its breakpoints are set, never the user's: before a
 * script runs (Debugger.setInstrumentationBreakpoint), and at the start of a worker or process
 * that waited for its debugger (NodeWorker's waitForDebuggerOnStart, Node's --inspect-brk).
 */
export function isHoldingStop(event: PausedEvent): boolean {
  return event.reason === "instrumentation" || event.reason === "Break on start";
}

/**
 * A stop on Node's wrapper function around a CommonJS file compiled as a script (its one
 * statement, line 0 column 0): before the module's code has started, so a step from there leaves
 * the file. The stop belongs on the module's first statement.
 */
export function isCommonJsWrapperStop(event: PausedEvent, isCommonJsScript: (scriptId: string) => boolean): boolean {
  const top = event.callFrames[0]?.location;
  return !isHoldingStop(event) && top !== undefined && top.lineNumber === 0 && (top.columnNumber ?? 0) === 0 && isCommonJsScript(top.scriptId);
}

/** Hidden from the user: resume, step out (back to the program that called in) or step into (on to its next statement). */
export type HiddenStop = "resume" | "stepOut" | "stepInto";

/**
 * What the user asked for shapes where the program stops: after Pause or a step, a stop in code
 * that is not the program's (Node's timers, its module loader, rt's bundle) goes on into the
 * program's code; caught exceptions thrown and caught there are not the program's either.
 */
export class StopPolicy<Frame extends PausedFrame = PausedFrame> {
  private seeking: "pause" | "step" | undefined;
  private skippedSteps = 0;

  constructor(private readonly isProgramFrame: (frame: Frame) => boolean) {}

  /** Pause or a step was sent (undefined: continue): its stop is to land in the program's code. */
  asked(kind: "pause" | "step" | undefined): void {
    this.seeking = kind;
    this.skippedSteps = 0;
  }

  /**
   * A stop to hide, or `{ show }` with what the user asked for that led to it (undefined for a
   * breakpoint, `debugger;` or an exception the program met on its own).
   */
  decide(event: PausedEvent<Frame>): { hide: HiddenStop } | { show: "pause" | "step" | undefined } {
    if (isHoldingStop(event)) return { hide: "resume" };
    const top = event.callFrames[0];
    const stepped = (event.hitBreakpoints ?? []).length === 0 && (event.reason === "other" || event.reason === "step");
    if (this.seeking && stepped && top && !this.isProgramFrame(top) && this.skippedSteps < MAX_SKIPPED_STEPS) {
      this.skippedSteps++;
      return { hide: event.callFrames.some((frame) => this.isProgramFrame(frame)) ? "stepOut" : "stepInto" };
    }
    const caught =
      (event.reason === "exception" || event.reason === "promiseRejection") && (event.data as { uncaught?: boolean } | undefined)?.uncaught !== true;
    // (Blackboxing can't hide these: in Node 24, V8 ignores Debugger.setBlackboxPatterns and
    // setBlackboxedRanges for Node's built-in modules.)
    if (caught && top && !this.isProgramFrame(top)) return { hide: "resume" };
    const show = this.seeking;
    this.asked(undefined);
    return { show };
  }
}
