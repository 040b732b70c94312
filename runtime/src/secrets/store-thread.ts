// The thread that talks to the credential store (dist/secrets-store-thread.cjs, a worker
// thread). @napi-rs/keyring's Entry constructor connects to D-Bus synchronously (~8 ms, 2 s
// when the daemon is frozen), so no Entry is ever made on the program's thread. Here requests
// run one at a time, in call order, with the synchronous API: AsyncEntry in this thread was
// 4-8% slower per get, 100 concurrent gets take the same ~52 ms either way (gnome-keyring
// answers one at a time), and a frozen daemon ties up this thread only, never libuv's pool
// that the program's fs calls need.
import type { Entry } from "@napi-rs/keyring";
import { receiveMessageOnPort, workerData } from "node:worker_threads";
import { classifyStoreError, STORE_DOWN, type StoreFailure } from "./errors.js";
import { isFailure, loadKeyring, type Keyring } from "./keyring.js";
import { REQUESTS, SLEEPING, type ChannelData, type Reply, type Request } from "./store.js";

// Pinned: without it a Secret Service failure silently falls back to the kernel keyutils store
// (memory only, and it returned wrong nulls here). Other platforms ignore the option.
const ENTRY_OPTIONS = { linux: { store: "secret-service" } } as const;
/**
 * Each Entry holds a D-Bus connection and costs ~8 ms to make: one per (service, name), reused.
 * Past this many pairs the least recently used is dropped (its connection closes when collected).
 */
const MAX_ENTRIES = 256;

const { port, counters: shared } = workerData as ChannelData;
const counters = new Int32Array(shared);
const entries = new Map<string, Entry>();
let keyring: Keyring | StoreFailure | undefined;

function entryFor(module: Keyring, service: string, name: string): Entry {
  const key = `${service}\0${name}`; // NUL never occurs in a checked service or name
  let entry = entries.get(key);
  if (entry) entries.delete(key);
  else entry = new module.Entry(service, name, ENTRY_OPTIONS);
  entries.set(key, entry);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  return entry;
}

function perform(module: Keyring, request: Request): Reply {
  const { id, service, name } = request;
  try {
    const entry = entryFor(module, service, name);
    switch (request.op) {
      case "get": {
        const numbers = entry.getSecret();
        if (numbers === null) return { id, result: null };
        const bytes = Uint8Array.from(numbers);
        numbers.fill(0);
        return { id, result: bytes };
      }
      case "set":
        entry.setSecret(request.value);
        return { id, result: true };
      case "delete":
        return { id, result: entry.deleteCredential() };
    }
  } catch (error) {
    // A failed entry may hold a broken connection (daemon restarted, bus gone): reconnect next time.
    entries.delete(`${service}\0${name}`);
    return { id, failure: classifyStoreError(error) };
  }
}

function send(reply: Reply): void {
  const { result } = reply;
  port.postMessage(reply, result instanceof Uint8Array ? [result.buffer as ArrayBuffer] : []);
}

function next(): Request | undefined {
  return receiveMessageOnPort(port)?.message as Request | undefined;
}

function handle(request: Request): void {
  keyring ??= loadKeyring();
  const reply = isFailure(keyring) ? { id: request.id, failure: keyring } : perform(keyring, request);
  if (request.op === "set") request.value.fill(0);
  send(reply);
  // Requests that queued up while the store was found unreachable would each wait out the same
  // failure (2 s apiece for a frozen daemon): they get its answer now.
  if (reply.failure && STORE_DOWN.has(reply.failure.code)) {
    for (let queued = next(); queued; queued = next()) {
      if (queued.op === "set") queued.value.fill(0);
      send({ id: queued.id, failure: reply.failure });
    }
  }
}

/**
 * How long the thread stays awake for the next request before it sleeps. A program that makes
 * calls one after another sends the next within ~0.1 ms of an answer; waking a sleeping thread
 * costs a system call on each side (~20 us on the get path here).
 */
const SPIN_MS = 0.25;

// This thread has nothing else to do: it waits until the program has sent more requests.
for (let requestsSeen = 0; ; ) {
  const spinUntil = performance.now() + SPIN_MS;
  while (Atomics.load(counters, REQUESTS) === requestsSeen && performance.now() < spinUntil);
  // The program notifies only a thread that says it sleeps; Atomics.wait returns at once if a
  // request came in between, so none is missed.
  Atomics.store(counters, SLEEPING, 1);
  Atomics.wait(counters, REQUESTS, requestsSeen);
  Atomics.store(counters, SLEEPING, 0);
  requestsSeen = Atomics.load(counters, REQUESTS);
  for (let request = next(); request; request = next()) handle(request);
}
