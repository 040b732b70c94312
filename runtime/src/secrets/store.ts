// The program's side of the credential store: requests go to one worker thread (started on
// first use, loading @napi-rs/keyring there) and come back as replies. The worker is unref'd
// whenever nothing is pending, so an idle store never keeps a program alive.
import * as path from "node:path";
import { SHARE_ENV, Worker } from "node:worker_threads";
import type { StoreFailure } from "./errors.js";

export type Request =
  | { readonly id: number; readonly op: "get" | "delete"; readonly service: string; readonly name: string }
  | { readonly id: number; readonly op: "set"; readonly service: string; readonly name: string; readonly value: Uint8Array };

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

interface Pending {
  readonly resolve: (reply: Reply) => void;
  readonly timer: NodeJS.Timeout;
}

const pending = new Map<number, Pending>();
let worker: Worker | undefined;
let lastId = 0;

type RequestWithoutId = Request extends infer R ? (R extends Request ? Omit<R, "id"> : never) : never;

/** Sends a request; a set's value buffer is transferred (the caller's view becomes empty). */
export function request(body: RequestWithoutId): Promise<Reply> {
  const thread = worker ?? startWorker();
  const id = ++lastId;
  if (pending.size === 0) thread.ref();
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle({ id, failure: { code: "ERR_SECRETS_TIMEOUT" } }), DEADLINE_MS);
    pending.set(id, { resolve, timer });
    const value = body.op === "set" ? body.value : undefined;
    thread.postMessage({ ...body, id }, value ? [value.buffer as ArrayBuffer] : []);
  });
}

function settle(reply: Reply): void {
  const waiting = pending.get(reply.id);
  if (!waiting) {
    // The answer to a call that already timed out: nobody reads these bytes.
    if (reply.result instanceof Uint8Array) reply.result.fill(0);
    return;
  }
  pending.delete(reply.id);
  clearTimeout(waiting.timer);
  if (pending.size === 0) worker?.unref();
  waiting.resolve(reply);
}

function startWorker(): Worker {
  const thread = new Worker(path.join(__dirname, "secrets-store-thread.cjs"), {
    name: "rt.secrets",
    // The live environment (DBUS_SESSION_BUS_ADDRESS may be set after the first call), and none
    // of the program's preloads: the thread runs rt's code only.
    env: SHARE_ENV,
    execArgv: [],
  });
  thread.on("message", settle);
  // Only a bug in rt ends the thread: fail what it was doing, start a new one for later calls.
  const fail = (detail: string): void => {
    worker = undefined;
    for (const id of [...pending.keys()]) settle({ id, failure: { code: "ERR_SECRETS_PLATFORM_ERROR", detail } });
  };
  thread.on("error", (error) => fail(`rt's credential store thread failed: ${error.message}`));
  thread.on("exit", (code) => fail(`rt's credential store thread exited with code ${code}`));
  worker = thread;
  return thread;
}
