// The program's side of the credential store: requests go to one worker thread (started on
// first use, loading @napi-rs/keyring there) and come back as replies on a MessageChannel.
//
// The store thread has no event loop to speak of: it sleeps on a shared counter (Atomics.wait)
// and reads requests with receiveMessageOnPort; after an answer it stays awake for 0.25 ms, so a
// program calling in a loop never waits for it to wake. Replies arrive as ordinary 'message'
// events (Atomics.waitAsync measured ~5% slower on a get). Against the raw module's
// AsyncEntry.getPassword on the main thread (~0.6 ms), a get through this path measures
// 1.04-1.10x in bench/secrets.mjs (staying asleep instead: 1.10-1.12x; plain
// worker.postMessage both ways: 1.07-1.15x).
import * as path from "node:path";
import type { MessagePort, Worker } from "node:worker_threads";
import type { StoreFailure } from "./errors.js";

export type RequestBody =
  | { readonly op: "get" | "delete"; readonly service: string; readonly name: string }
  | { readonly op: "set"; readonly service: string; readonly name: string; readonly value: Uint8Array };
export type Request = RequestBody & { readonly id: number };

/** get: the value's UTF-8 bytes or null; set: true; delete: whether something was deleted. */
export interface Reply {
  readonly id: number;
  readonly result?: Uint8Array | boolean | null;
  readonly failure?: StoreFailure;
}

/**
 * Every call settles within this time, whatever the store does. A frozen daemon is reported
 * sooner, by D-Bus' own 2 s reply timeout; this bounds the rest (a daemon that answers slowly).
 */
export const DEADLINE_MS = 10_000;

/** What the store thread gets: its end of the channel and the shared counters. */
export interface ChannelData {
  readonly port: MessagePort;
  readonly counters: SharedArrayBuffer;
}
/** Indexes into the shared Int32Array: requests sent so far, and whether the store thread sleeps. */
export const REQUESTS = 0;
export const SLEEPING = 1;

interface Pending {
  readonly resolve: (reply: Reply) => void;
  /** performance.now() after which the call fails with ERR_SECRETS_TIMEOUT. */
  readonly deadline: number;
}

interface StoreThread {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly counters: Int32Array;
}

const pending = new Map<number, Pending>();
let thread: StoreThread | undefined;
let lastId = 0;
// One timer for all deadlines (calls expire in call order), not one per call.
// biome-ignore lint/correctness/noUnusedVariables: read by `sweeper ??=` in request(), which starts one only when none runs
let sweeper: NodeJS.Timeout | undefined;

/** Sends a request; a set's value buffer is transferred (the caller's view becomes empty). */
export function request(body: RequestBody): Promise<Reply> {
  const store = thread ?? startThread();
  const id = ++lastId;
  // Only pending calls keep the program alive.
  if (pending.size === 0) store.port.ref();
  return new Promise((resolve) => {
    pending.set(id, { resolve, deadline: performance.now() + DEADLINE_MS });
    sweeper ??= sweepAfter(DEADLINE_MS);
    const value = body.op === "set" ? body.value : undefined;
    store.port.postMessage({ ...body, id }, value ? [value.buffer as ArrayBuffer] : []);
    Atomics.add(store.counters, REQUESTS, 1);
    // Waking a sleeping thread is a system call; one that is busy or still awake sees the count.
    if (Atomics.load(store.counters, SLEEPING) === 1) Atomics.notify(store.counters, REQUESTS);
  });
}

function sweepAfter(ms: number): NodeJS.Timeout {
  return setTimeout(() => {
    sweeper = undefined;
    const now = performance.now();
    for (const [id, { deadline }] of pending) {
      if (deadline > now) {
        sweeper = sweepAfter(deadline - now);
        return;
      }
      settle({ id, failure: { code: "ERR_SECRETS_TIMEOUT" } });
    }
  }, ms).unref();
}

function settle(reply: Reply): void {
  const waiting = pending.get(reply.id);
  if (!waiting) {
    // The answer to a call that already timed out: nobody reads these bytes.
    if (reply.result instanceof Uint8Array) reply.result.fill(0);
    return;
  }
  pending.delete(reply.id);
  if (pending.size === 0) thread?.port.unref();
  waiting.resolve(reply);
}

function startThread(): StoreThread {
  // Required on first use, not when the module loads: `import { version } from "rt"` reads
  // every member of the namespace, so loading this module must stay cheap.
  const threads = require("node:worker_threads") as typeof import("node:worker_threads");
  const { port1, port2 } = new threads.MessageChannel();
  const counters = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const workerData: ChannelData = { port: port2, counters: counters.buffer as SharedArrayBuffer };
  const worker = new threads.Worker(path.join(__dirname, "secrets-store-thread.cjs"), {
    name: "rt.secrets",
    workerData,
    transferList: [port2],
    // The live environment (DBUS_SESSION_BUS_ADDRESS may be set after the first call), and none
    // of the program's preloads: the thread runs rt's code only.
    env: threads.SHARE_ENV,
    execArgv: [],
  });
  worker.unref();
  port1.on("message", settle);
  const store: StoreThread = { worker, port: port1, counters };
  // Only a bug in rt ends the thread: fail what it was doing, start a new one for later calls.
  const fail = (detail: string): void => {
    if (thread !== store) return;
    thread = undefined;
    port1.close();
    for (const id of [...pending.keys()]) settle({ id, failure: { code: "ERR_SECRETS_PLATFORM_ERROR", detail } });
  };
  worker.on("error", (error) => fail(`rt's credential store thread failed: ${error.message}`));
  worker.on("exit", (code) => fail(`rt's credential store thread exited with code ${code}`));
  thread = store;
  return store;
}
