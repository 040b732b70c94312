// The thread that talks to the credential store (dist/secrets-store-thread.cjs, a worker
// thread). @napi-rs/keyring's Entry constructor connects to D-Bus synchronously (~8 ms, 2 s
// when the daemon is frozen), so no Entry is ever made on the program's thread. Here requests
// run one at a time with the synchronous API: measured against AsyncEntry in this thread, a
// get costs 0.53 ms instead of 0.57 ms (raw AsyncEntry on the main thread: 0.50 ms), 100
// concurrent gets take the same ~52 ms (gnome-keyring answers one at a time anyway), and a
// frozen daemon ties up this thread only, never libuv's pool that the program's fs calls need.
import type { Entry } from "@napi-rs/keyring";
import { parentPort, receiveMessageOnPort } from "node:worker_threads";
import { classifyStoreError, STORE_DOWN, type StoreFailure } from "./errors.js";
import { isFailure, loadKeyring, type Keyring } from "./keyring.js";
import type { Reply, Request } from "./store.js";

// Pinned: without it a Secret Service failure silently falls back to the kernel keyutils store
// (memory only, and it returned wrong nulls here). Other platforms ignore the option.
const ENTRY_OPTIONS = { linux: { store: "secret-service" } } as const;
/**
 * Each Entry holds a D-Bus connection and costs ~8 ms to make: one per (service, name), reused.
 * Past this many pairs the least recently used is dropped (its connection closes when collected).
 */
const MAX_ENTRIES = 256;

const port = parentPort!;
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

function handle(request: Request): void {
  keyring ??= loadKeyring();
  const reply = isFailure(keyring) ? { id: request.id, failure: keyring } : perform(keyring, request);
  if (request.op === "set") request.value.fill(0);
  send(reply);
  // Requests that queued up while the store was found unreachable would each wait out the same
  // failure (2 s apiece for a frozen daemon): they get its answer now.
  if (reply.failure && STORE_DOWN.has(reply.failure.code)) {
    for (let queued = receiveMessageOnPort(port); queued; queued = receiveMessageOnPort(port)) {
      const request = queued.message as Request;
      if (request.op === "set") request.value.fill(0);
      send({ id: request.id, failure: reply.failure });
    }
  }
}

port.on("message", handle);
