// What the parts of one thread's debugging share (stops.ts, stepping.ts, inspection.ts,
// console.ts; Debuggee owns one and wires them): its connection, scripts, breakpoints and
// variables, the current pause, and the thread's range of ids. The parts import this module and
// the ones below it (sources, breakpoints, variables), never each other upwards.
// Covered by: every test of debug-adapter/test/launch.test.mjs and workers.test.mjs (each one
// connects, stops and reads a stack through it).
import * as path from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { Protocol } from "devtools-protocol";
import { StopPolicy } from "rt-runtime/stop-policy";
import type { CdpSession } from "../cdp/connection.js";
import { Breakpoints } from "./breakpoints.js";
import { isInternal } from "./internal.js";
import { Sources, type Script } from "./sources.js";
import { Variables } from "./variables.js";

export type CallFrame = Protocol.Debugger.CallFrame;
export type RemoteObject = Protocol.Runtime.RemoteObject;

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

export interface Paused {
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

export class ThreadState {
  cdp: CdpSession | undefined;
  options: AttachOptions = { ownsStderr: true };
  /** Where this thread's frame, variable and source ids are numbered from. */
  readonly idBase: number;
  readonly sources: Sources;
  readonly breakpoints: Breakpoints;
  readonly variables: Variables;
  paused: Paused | undefined;
  /** The value the function last stepped out of returned: `$returnValue` in the caller. */
  lastReturnValue: RemoteObject | undefined;
  /** The next `resumed` is one the user asked for: no `continued` event for it. */
  expectResume = false;
  /** Which stops the user sees; a pause or step goes on through Node's and rt's code. */
  readonly stopPolicy = new StopPolicy<CallFrame>((frame) => !this.isInternalFrame(frame));

  constructor(
    readonly events: DebuggeeEvents,
    readonly threadId: number,
  ) {
    this.idBase = (threadId - MAIN_THREAD_ID) * THREAD_ID_SPACE;
    this.sources = new Sources(this.idBase);
    this.variables = new Variables(() => this.cdp, this.idBase);
    this.breakpoints = new Breakpoints(this.sources, (breakpoint) =>
      this.events.breakpointChanged(this.breakpoints.toDap(breakpoint), this.breakpoints.indexInFile(breakpoint)),
    );
  }

  get connected(): CdpSession | undefined {
    return this.cdp && !this.cdp.isClosed ? this.cdp : undefined;
  }

  requireConnection(): CdpSession {
    const cdp = this.connected;
    if (!cdp) throw new Error("the program is not connected");
    return cdp;
  }

  frame(frameId: number): CallFrame {
    const frame = this.paused?.frames.get(frameId);
    if (!frame) throw new Error(`no stack frame ${frameId}: the program is not paused there any more`);
    return frame;
  }

  isInternalFrame(frame: CallFrame): boolean {
    return isInternal(this.sources.get(frame.location.scriptId)?.url ?? frame.url);
  }

  dapSource(script: Script, file: string | undefined): DebugProtocol.Source {
    if (file) {
      const source: DebugProtocol.Source = { name: path.basename(file), path: file };
      if (isInternal(script.url)) source.presentationHint = "deemphasize";
      return source;
    }
    return { name: script.url || `script ${script.scriptId}`, sourceReference: this.sources.referenceFor(script), presentationHint: "deemphasize" };
  }
}

/** A catch for a request the program may not answer because it ended (its connection closed). */
export function ignoreIfClosed(cdp: CdpSession): (error: unknown) => void {
  return (error) => {
    if (!cdp.isClosed) throw error;
  };
}
