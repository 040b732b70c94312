// What the main thread and the inspector's server thread share: startup data and a small
// block of shared memory the main thread can wait on (Atomics.wait) without running JS.

/** The server thread's settings, its first message (it boots before rt knows the entry). */
export interface InspectorSettings {
  readonly host: string;
  readonly port: number;
  /** The entry's path and URL, for /json/list. */
  readonly entry: string;
  readonly entryUrl: string;
  /** --inspect-brk: pause when the entry's script starts. */
  readonly breakOnStart: boolean;
  /** Where the web debugger's files are. */
  readonly uiDirectory: string;
  /** RT_INSPECT_NOTIFY (or RT_INSPECT_CHILDREN): where to write the WebSocket URL once listening. */
  readonly notify: string | undefined;
  /** Reporting in as a child process of the launched program (RT_INSPECT_CHILDREN). */
  readonly child: boolean;
  /** The transpiler cache's directory: source maps there are handed to clients inline (worker.ts, CachedMaps). */
  readonly mapDirectory: string | undefined;
  readonly shared: SharedArrayBuffer;
}

/** Int32 slots of the shared block; the session id's bytes follow at `idOffset`. */
export const STATE = {
  /** 0 starting, 1 listening, 2 failed. */
  phase: 0,
  port: 1,
  /** 1 once a client sent Runtime.runIfWaitingForDebugger. */
  released: 2,
  /** Why listening failed: 1 address in use, 2 permission denied, 3 address not available, 4 other. */
  error: 3,
  idLength: 4,
  /** How many clients are connected. */
  clients: 5,
  /** 1 once the program ended with clients attached: they are told, and it waits for them to go. */
  ended: 6,
  idOffset: 64,
  bytes: 64 + 256,
} as const;

/** What rt prints when a program ends with a debugger attached: Node's line. */
export const WAITING_FOR_DISCONNECT = "Waiting for the debugger to disconnect...\n";
