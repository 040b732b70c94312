// --inspect, --inspect-wait, --inspect-brk: start the server thread, print the banner before
// any program output, then wait for a client and/or stop on the entry's first line.
// (worker_threads and inspector are required only when a debugger flag is given: every other
// run would pay for loading them.)
import { writeSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { Worker } from "node:worker_threads";
import type { FlagValues } from "../flags/parse.js";
import { UsageError } from "../errors.js";
import { hostPort, isLoopback, type InspectorAddress } from "./address.js";
import { inheritedInspector, takeAdapterSettings, type InspectorMode } from "./environment.js";
import { STATE, WAITING_FOR_DISCONNECT, type InspectorSettings } from "./shared.js";
import { startInspectorThread } from "./thread.js";

/** How long the server may take to start listening before rt gives up. */
const START_TIMEOUT_MS = 10_000;

const LISTEN_ERRORS: Readonly<Record<number, string>> = {
  1: "is already in use; pick another port or leave it out to use a free one",
  2: "needs privileges rt does not have; use a port above 1023",
  3: "is not an address of this machine",
  4: "cannot be listened on",
};

export interface InspectorHandle {
  /** Blocks until the server listens, prints the banner, and waits/breaks as the mode asks. */
  beforeEntry(): void;
}

/** The debugger flag given, the most waiting one first if several are. */
export function inspectorFlag(values: FlagValues): { mode: InspectorMode; value: string } | undefined {
  for (const mode of ["inspect-brk", "inspect-wait", "inspect"] as const) {
    const value = values[mode];
    if (typeof value === "string") return { mode, value };
  }
  return undefined;
}

/** The debugger a program runs under: its flag, else one a debug adapter passed down in RT_INSPECT. */
export function inspectorMode(values: FlagValues): { mode: InspectorMode; value: string } | undefined {
  return inspectorFlag(values) ?? inheritedInspector(process.env);
}

let booting: Worker | undefined;

/**
 * Starts the server thread as soon as the command line asks for a debugger (unless the launcher
 * already did and hands it over): a thread takes ~25-35 ms to boot, longer than rt takes to load
 * the program, so it boots meanwhile and listens once startInspector sends its settings.
 */
export function bootInspectorThread(started?: Worker): void {
  booting ??= started ?? startInspectorThread();
}

/** The command runs no program itself (`rt --inspect run dev`): the thread the launcher started ends. */
export function discardInspectorThread(): void {
  void booting?.terminate();
  booting = undefined;
}

/** Hands the server thread (booted now if it was not yet) where to listen and what it debugs. */
export function startInspector(mode: InspectorMode, address: InspectorAddress, entry: string, mapDirectory: string | undefined): InspectorHandle {
  const shared = new SharedArrayBuffer(STATE.bytes);
  const adapter = takeAdapterSettings(process.env);
  const settings: InspectorSettings = {
    host: address.host,
    port: address.port,
    entry,
    entryUrl: pathToFileURL(entry).href,
    breakOnStart: mode === "inspect-brk",
    uiDirectory: path.join(__dirname, "inspector-ui"),
    notify: adapter.notify,
    child: adapter.child,
    mapDirectory,
    shared,
  };
  bootInspectorThread();
  booting!.postMessage(settings);
  // Chosen here, while the thread boots: an unguessable session id unless a prefix was given.
  const id = address.prefix ?? (require("node:crypto") as typeof import("node:crypto")).randomUUID();
  const idBytes = Buffer.from(id, "latin1");
  new Uint8Array(shared, STATE.idOffset, idBytes.length).set(idBytes);
  Atomics.store(new Int32Array(shared), STATE.idLength, idBytes.length);
  // Console calls made before a client attaches are kept only while some session exists;
  // V8 replays them to a client's Runtime.enable.
  const keeper = new (require("node:inspector") as typeof import("node:inspector")).Session();
  keeper.connect();
  if (adapter.consoleToDebugger) routeConsoleToDebugger();
  compileCommonJsAsScripts();

  return {
    beforeEntry() {
      const state = new Int32Array(shared);
      Atomics.wait(state, STATE.phase, 0, START_TIMEOUT_MS);
      const phase = Atomics.load(state, STATE.phase);
      const where = hostPort(address.host, address.port);
      if (phase !== 1) {
        const reason = phase === 2 ? LISTEN_ERRORS[Atomics.load(state, STATE.error)] : "did not start in time";
        throw new UsageError(`--${mode}: ${where} ${reason}`);
      }
      const port = Atomics.load(state, STATE.port);
      writeSync(2, banner(address.host, port, id));
      if (mode !== "inspect") Atomics.wait(state, STATE.released, 0);
      waitAfterExitHandlers(() => waitForDisconnect(state));
    },
  };
}

/**
 * Debuggers set the breakpoints of a transpiled file when V8 pauses before the file's script runs
 * (Debugger.setInstrumentationBreakpoint), after reading its source map. Node compiles CommonJS
 * modules as functions, which V8 runs without that pause, so breakpoints in a CommonJS file's
 * top-level code were set too late. Assigning Module.wrap (even to itself) makes Node compile
 * them as scripts again, as it did for years: the pause happens. (Only the first line's columns
 * move by the wrapper's length.)
 */
function compileCommonJsAsScripts(): void {
  const Module = require("node:module") as { wrap: unknown };
  // biome-ignore lint/correctness/noSelfAssign: the assignment itself is what makes Node compile CommonJS as scripts (above)
  Module.wrap = Module.wrap;
}

/**
 * A debug adapter shows console.* calls from the debugger's events (with their source location
 * and expandable objects) and the process's stdout/stderr as they are: each call must reach one
 * of them only. V8's console methods themselves are assigned, so the caller stays the top frame.
 */
function routeConsoleToDebugger(): void {
  const debuggerConsole = (require("node:inspector") as typeof import("node:inspector")).console as unknown as Record<string, unknown>;
  const consoleRecord = console as unknown as Record<string, unknown>;
  for (const [name, method] of Object.entries(debuggerConsole)) {
    if (typeof method === "function" && typeof consoleRecord[name] === "function") consoleRecord[name] = method;
  }
}

/**
 * Runs `wait` after every other 'exit' listener, the program's included (their console output
 * reaches the debugger, as under Node, which waits after them): it moves behind each one added.
 */
function waitAfterExitHandlers(wait: () => void): void {
  process.on("exit", wait);
  process.on("newListener", (event: string | symbol, listener: unknown) => {
    if (event !== "exit" || listener === wait) return;
    queueMicrotask(() => {
      process.removeListener("exit", wait);
      process.on("exit", wait);
    });
  });
}

/**
 * The program ended (its last statement, process.exit() or an uncaught error) with clients
 * attached: as Node does, say so, let them know (the server thread sends it after every message
 * before it) and keep serving them until they disconnect. The session's messages still run here
 * meanwhile: V8 handles the inspector's interrupts during Atomics.wait. A signal now ends the
 * process (the program's own handlers could not run anyway).
 */
function waitForDisconnect(state: Int32Array): void {
  if (Atomics.load(state, STATE.clients) === 0) return;
  writeSync(2, WAITING_FOR_DISCONNECT);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.removeAllListeners(signal);
  Atomics.store(state, STATE.ended, 1);
  Atomics.notify(state, STATE.ended);
  // The last client's session ends here whenever this thread next handles inspector interrupts:
  // in this wait, or in the process's teardown once the server thread is joined. Both are safe
  // because that thread lives until the teardown ends it (worker.ts).
  for (let clients: number; (clients = Atomics.load(state, STATE.clients)) > 0; ) Atomics.wait(state, STATE.clients, clients);
}

function banner(host: string, port: number, id: string): string {
  const address = hostPort(host, port);
  const line = "--------------------- rt inspector ---------------------";
  const warning = isLoopback(host) ? "" : `Warning: listening on ${host}: anyone who can reach this port can run code in this process.\n`;
  return (
    `${line}\n${warning}Listening:\n  ws://${address}/${id}\nInspect in browser:\n  http://${address}/#${address}/${id}\n` +
    `DevTools:\n  devtools://devtools/bundled/js_app.html?experiments=true&v8only=true&ws=${address}/${id}\n${line}\n`
  );
}
