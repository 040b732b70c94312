// What the DAP session asks of a debug target (a program it launched or attached to) and what a
// target tells the session. Targets own processes and connections: starting rt (spawned or in the
// editor's terminal), reattaching after rt --watch or an attach restart, stopping; the session
// owns threads, breakpoints and the DAP conversation.
import type { CdpConnection } from "../cdp/connection.js";
import type { Announcement } from "./launch.js";

export interface MainConnection {
  readonly cdp: CdpConnection;
  /** The program's first connection in this target (not a watch restart or reattach). */
  readonly first: boolean;
  /** Stop before the first statement of this file (launch) or of the first user file (true). */
  readonly stopOnEntry: string | boolean;
  /** This adapter shows the program's stderr itself (it spawned the process). */
  readonly ownsStderr: boolean;
}

export interface TargetEvents {
  /** A connection to the program's main thread: take it over (the program still waits). */
  connected(connection: MainConnection): Promise<void>;
  /** The program's current connection closed (it ended, or is restarting). */
  disconnected(): void;
  /** The program reconnected after a restart: let it run on, and say so. */
  reattached(message: string): Promise<void>;
  output(text: string, category: "stdout" | "stderr" | "console"): void;
  /** A launched process ended. */
  exited(exitCode: number): void;
  /** Nothing more to debug. */
  ended(): void;
  /** A process the program started reported in; it waits until a debugger lets it run. */
  child(announcement: Announcement): void;
}

export interface DebugTarget {
  /** The program is this session's to end (launched by it, or a child process of one that was). */
  readonly ownsProcess: boolean;
  /** Starts the program (or finds it) and connects; resolves once the first connection is taken over. */
  start(): Promise<void>;
  /** Ends a launched program (SIGTERM, then SIGKILL); an attached one is left running. */
  stop(): Promise<void>;
  /** Starts it again: a launched program anew, an attached one reconnected. */
  restart(): Promise<void>;
  /** The client hangs up: ends the program if asked to (launch) and releases what the target holds. */
  disconnect(terminate: boolean): Promise<void>;
  /** The adapter is going away: release everything at once. */
  dispose(): void;
}

/**
 * Leaves a program running: Debugger.disable drops this client's breakpoints and lets a paused
 * program go (so it can't stop again before the hang-up is seen), then the connection closes.
 */
export async function hangUp(cdp: CdpConnection): Promise<void> {
  await cdp.send("Debugger.disable").catch(() => {});
  cdp.close();
}
