// A typed Chrome DevTools Protocol client over one WebSocket: commands with a bounded wait,
// events by name. Types come from devtools-protocol (the protocol's own generated definitions).
import type { ProtocolMapping } from "devtools-protocol/types/protocol-mapping";
import type WebSocket from "ws";

/** Node's own domain for worker threads (not among the browser protocol's definitions). */
export interface WorkerInfo {
  readonly workerId: string;
  readonly type: string;
  readonly title: string;
  readonly url: string;
}
interface NodeWorkerCommands {
  "NodeWorker.enable": { paramsType: [{ waitForDebuggerOnStart: boolean }]; returnType: Record<string, never> };
  "NodeWorker.sendMessageToWorker": { paramsType: [{ sessionId: string; message: string }]; returnType: Record<string, never> };
  "NodeWorker.detach": { paramsType: [{ sessionId: string }]; returnType: Record<string, never> };
}
interface NodeWorkerEvents {
  "NodeWorker.attachedToWorker": [{ sessionId: string; workerInfo: WorkerInfo; waitingForDebugger: boolean }];
  "NodeWorker.detachedFromWorker": [{ sessionId: string }];
  "NodeWorker.receivedMessageFromWorker": [{ sessionId: string; message: string }];
}

/** Node's domain for the end of a program (rt keeps an ended program until its debuggers go, as Node does). */
interface NodeRuntimeCommands {
  "NodeRuntime.notifyWhenWaitingForDisconnect": { paramsType: [{ enabled: boolean }]; returnType: Record<string, never> };
}
interface NodeRuntimeEvents {
  "NodeRuntime.waitingForDisconnect": [Record<string, never>];
}

export type Commands = ProtocolMapping.Commands & NodeWorkerCommands & NodeRuntimeCommands;
export type Events = ProtocolMapping.Events & NodeWorkerEvents & NodeRuntimeEvents;
export type Params<M extends keyof Commands> = Commands[M]["paramsType"][0];
export type Result<M extends keyof Commands> = Commands[M]["returnType"];
export type EventParams<E extends keyof Events> = Events[E][0];

/** RT_DEBUG_ADAPTER_TRACE=1: every CDP message on the adapter's stderr (never the DAP channel). */
export const trace = process.env.RT_DEBUG_ADAPTER_TRACE
  ? (line: string) => process.stderr.write(`${performance.now().toFixed(1)} ${line.slice(0, 400)}\n`)
  : undefined;

/** How long any command may take before the caller gets an error (the program may have died). */
export const COMMAND_TIMEOUT_MS = 10_000;

export class CdpError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${message}`);
  }
}

interface Pending {
  readonly method: string;
  readonly resolve: (value: any) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * One CDP session: commands and their answers matched by id, events by name. Subclasses say how
 * a message travels (a WebSocket; a worker thread's session inside its parent's).
 */
export abstract class CdpSession {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(params: any) => void>>();
  private readonly closeListeners = new Set<() => void>();
  private closedFlag = false;

  protected abstract transmit(text: string): void;
  abstract close(): void;

  get isClosed(): boolean {
    return this.closedFlag;
  }

  send<M extends keyof Commands>(method: M, ...params: Commands[M]["paramsType"]): Promise<Result<M>> {
    return this.sendWithTimeout(method, params[0], COMMAND_TIMEOUT_MS);
  }

  private sendWithTimeout<M extends keyof Commands>(method: M, params: Params<M> | undefined, timeoutMs: number): Promise<Result<M>> {
    if (this.closedFlag) return Promise.reject(new CdpError(method, -1, "the debugger connection is closed"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new CdpError(method, -1, `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      const text = JSON.stringify({ id, method, params: params ?? {} });
      trace?.(`-> ${text}`);
      this.transmit(text);
    });
  }

  on<E extends keyof Events>(event: E, listener: (params: EventParams<E>) => void): void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
  }

  onClose(listener: () => void): void {
    if (this.closedFlag) listener();
    else this.closeListeners.add(listener);
  }

  protected receive(text: string): void {
    trace?.(`<- ${text}`);
    let message: { id?: number; method?: string; params?: unknown; result?: unknown; error?: { code: number; message: string } };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message.id === "number") {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error) pending.reject(new CdpError(pending.method, message.error.code, message.error.message));
      else pending.resolve(message.result ?? {});
      return;
    }
    if (typeof message.method !== "string") return;
    for (const listener of this.listeners.get(message.method) ?? []) listener(message.params);
  }

  protected closed(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    for (const [, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new CdpError(pending.method, -1, "the debugger connection closed"));
    }
    this.pending.clear();
    for (const listener of this.closeListeners) listener();
  }
}

/** The program's main thread, over the inspector's WebSocket. */
export class CdpConnection extends CdpSession {
  /** Connects to `url` (ws://host:port/id) or fails within `timeoutMs`. */
  static connect(url: string, timeoutMs = COMMAND_TIMEOUT_MS): Promise<CdpConnection> {
    const WebSocketClass = require("ws") as typeof import("ws").WebSocket;
    return new Promise((resolve, reject) => {
      const socket = new WebSocketClass(url, { perMessageDeflate: false, handshakeTimeout: timeoutMs });
      const fail = (error: Error) => {
        socket.removeAllListeners();
        socket.on("error", () => {});
        socket.terminate();
        reject(new Error(`cannot connect to ${url}: ${error.message}`));
      };
      socket.once("error", fail);
      socket.once("unexpected-response", (_request, response) => fail(new Error(`the server answered HTTP ${response.statusCode}`)));
      socket.once("open", () => {
        socket.removeAllListeners();
        resolve(new CdpConnection(socket));
      });
    });
  }

  private constructor(private readonly socket: WebSocket) {
    super();
    socket.on("message", (data) => this.receive(String(data)));
    socket.on("error", () => {});
    socket.on("close", () => this.closed());
    // The program has ended and waits for its debuggers to disconnect: this one goes (its events
    // up to the end have arrived), as VS Code's JavaScript debugger does.
    this.on("NodeRuntime.waitingForDisconnect", () => this.close());
    this.send("NodeRuntime.notifyWhenWaitingForDisconnect", { enabled: true }).catch(() => {});
  }

  protected transmit(text: string): void {
    this.socket.send(text);
  }

  close(): void {
    this.socket.close();
  }
}
