// The inspector server, on its own thread so it keeps answering while the program is paused:
// HTTP for target discovery (/json/version, /json/list) and rt's web debugger, and a WebSocket
// per client bridged to a V8 inspector session connected to the main thread.
//
// Startup is on the critical path of `rt --inspect` (the program waits for the banner, which
// needs the port): the thread boots while rt loads the program, gets its settings as its first
// message and listens with a plain TCP server; node:http, the WebSocket library, the inspector
// module and the web debugger's files load when a client first needs them.
import { readFileSync, writeSync } from "node:fs";
import type { IncomingMessage, Server as HttpServer } from "node:http";
import type { Session as InspectorSession } from "node:inspector";
import { connect, createServer as createTcpServer, type Server as TcpServer } from "node:net";
import * as path from "node:path";
import { parentPort } from "node:worker_threads";
import type { WebSocket, WebSocketServer } from "ws";
import { pathReference } from "../diagnostics/source-maps.js";
import { hostPort } from "./address.js";
import { internalUrls, refusal, requestPath, serveHttp, type DebugTarget } from "./http.js";
import { INTERNAL_URLS_METHOD } from "./rt-methods.js";
import { STATE, type InspectorSettings } from "./shared.js";
import { isCommonJsWrapperStop, isHoldingStop } from "./stop-policy.js";

// Set by the first message, before the server listens: every request handler can use them.
let data!: InspectorSettings;
let state!: Int32Array;
let target!: DebugTarget;

/** The WebSocket path: the session id the main thread chose (written before the banner). */
function wsPath(): string | undefined {
  const length = Atomics.load(state, STATE.idLength);
  return length ? `/${Buffer.from(new Uint8Array(data.shared, STATE.idOffset, length)).toString("latin1")}` : undefined;
}

function newSession(): InspectorSession {
  const { Session } = require("node:inspector") as typeof import("node:inspector");
  return new Session();
}

let http: HttpServer | undefined;
let sockets: WebSocketServer | undefined;

/** The HTTP side, created for the first connection: every accepted socket is handed to it. */
function httpServer(): HttpServer {
  if (http) return http;
  http = (require("node:http") as typeof import("node:http")).createServer((request, response) => {
    try {
      serveHttp(target, request, response);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      response.end(`Internal Server Error: ${(error as Error).message}\n`);
    }
  });
  http.on("upgrade", (request: IncomingMessage, socket, head) => {
    socket.on("error", () => socket.destroy());
    const refused = refusal(request);
    const answer = (status: string, text: string) =>
      socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${text}`);
    if (refused) return answer(refused.status === 400 ? "400 Bad Request" : "403 Forbidden", refused.text);
    if (requestPath(request) !== wsPath()) return answer("404 Not Found", "Not Found: no such session\n");
    if (Atomics.load(state, STATE.ended)) return answer("503 Service Unavailable", "The program has ended\n");
    sockets ??= webSocketServer();
    sockets.handleUpgrade(request, socket, head, (client) => bridge(client));
  });
  return http;
}

function webSocketServer(): WebSocketServer {
  return new (require("ws") as typeof import("ws")).WebSocketServer({ noServer: true });
}

// A bug here must not end the program being debugged: one line, and the server goes on.
process.on("uncaughtException", (error) => writeSync(2, `rt inspector: internal error: ${error.stack ?? error}\n`));

parentPort!.once("message", (settings: InspectorSettings) => {
  // This thread never ends by itself: only the process's teardown ends it, terminating and
  // joining it while the main thread does nothing else. Otherwise, once the program ended (the
  // server closed) and the last client left, its loop would drain and it would end while the
  // main thread, dropping that client's session, posts the session's last message to it: Node
  // aborts (std::bad_weak_ptr in MainThreadInterface::Post, nodejs/node#40611). The port, whose
  // only listener `once` just removed, is what keeps it (the main thread unrefs the Worker).
  parentPort!.ref();
  data = settings;
  state = new Int32Array(data.shared);
  target = { entry: data.entry, entryUrl: data.entryUrl, uiDirectory: data.uiDirectory, socketPath: wsPath };
  breakOnStartPending = data.breakOnStart;
  const server = createTcpServer((socket) => httpServer().emit("connection", socket));
  server.on("error", (error: NodeJS.ErrnoException) => {
    Atomics.store(state, STATE.error, error.code === "EADDRINUSE" ? 1 : error.code === "EACCES" ? 2 : error.code === "EADDRNOTAVAIL" ? 3 : 4);
    Atomics.store(state, STATE.phase, 2);
    Atomics.notify(state, STATE.phase);
  });
  server.listen(data.port, data.host, () => {
    const address = server.address();
    Atomics.store(state, STATE.port, typeof address === "object" && address ? address.port : 0);
    Atomics.store(state, STATE.phase, 1);
    Atomics.notify(state, STATE.phase);
    if (data.notify) notifyAdapter(data.notify, typeof address === "object" && address ? address.port : 0);
    watchForEnd(server);
  });
  // (The main thread unrefs this thread: the server does not keep the program alive.)
});

/**
 * RT_INSPECT_NOTIFY: tells the debug adapter that launched rt where to connect (and which process
 * to stop: under runInTerminal it has no handle of its own), without it having to read (or own)
 * rt's stderr. Best effort: an adapter that went away is no error.
 */
function notifyAdapter(socketPath: string, port: number): void {
  // The main thread writes the session id right after sending the settings: wait for it, however
  // long a loaded machine keeps the main thread from it (an address without the id is no address).
  Atomics.wait(state, STATE.idLength, 0);
  const url = `ws://${hostPort(data.host, port)}${wsPath()}`;
  const announcement = data.child ? { url, pid: process.pid, child: true, ppid: process.ppid, entry: data.entry } : { url, pid: process.pid };
  const socket = connect(socketPath, () => socket.end(`${JSON.stringify(announcement)}\n`));
  socket.on("error", () => socket.destroy());
  socket.unref();
  // The adapter connects at once: load what its connection needs while the message travels.
  httpServer();
  sockets ??= webSocketServer();
  require("node:inspector");
}

/** A command on the client's inspector session; resolves with its result, undefined on an error. */
type Post = (method: string, params?: object) => Promise<any>;

/** --inspect-brk's stop happens once, for the first client that lets the program run. */
let breakOnStartPending = false;

/** JSON-RPC error codes the protocol uses. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const SERVER_ERROR = -32000;

/**
 * --inspect-brk: stop before the entry's code runs, at its first statement, as
 * `node --inspect-brk` does. An instrumentation breakpoint in the client's own session stops
 * before every script; the stops before the entry's dependencies are resumed and hidden from
 * the client, and the stop at the entry is the client's to resume. (A breakpoint on "line 0" would land inside a
 * hoisted function; Debugger.pause would stop inside rt's own code.)
 */
class EntryBreak {
  private instrumentation: string | undefined;
  private entryFound = false;
  private firstStatement: string | undefined;

  constructor(
    private readonly post: Post,
    private readonly resumeHidden: () => void,
  ) {}

  async arm(): Promise<void> {
    await this.post("Debugger.enable");
    this.instrumentation = (await this.post("Debugger.setInstrumentationBreakpoint", { instrumentation: "beforeScriptExecution" }))?.breakpointId;
  }

  /** Whether the client should not see this notification. */
  hides(message: { method: string; params?: any }): boolean {
    if (message.method !== "Debugger.paused") return false;
    if (this.firstStatement && message.params.hitBreakpoints?.includes(this.firstStatement)) {
      // The stop the client sees: an ordinary pause at the entry's first statement. No more
      // stops before scripts: the instrumentation breakpoint goes too (V8 removes it with
      // removeBreakpoint; removed before this stop, V8 skips the breakpoint on the same spot).
      void this.post("Debugger.removeBreakpoint", { breakpointId: this.firstStatement });
      void this.post("Debugger.removeBreakpoint", { breakpointId: this.instrumentation });
      this.firstStatement = undefined;
      this.instrumentation = undefined;
      return false;
    }
    if (!isHoldingStop(message.params) || !this.instrumentation) return false;
    if (!this.entryFound && message.params.data?.url === data.entryUrl) {
      this.entryFound = true;
      // Steps don't work from an instrumentation stop: go on to a breakpoint on the same spot.
      // (On a CommonJS entry that spot is Node's wrapper: CommonJsWrapperStops moves the stop inside.)
      void this.post("Debugger.setBreakpoint", { location: message.params.callFrames[0].location }).then((result) => {
        this.firstStatement = result?.breakpointId;
        this.resumeHidden();
      });
      return true;
    }
    this.resumeHidden();
    return true;
  }
}

/**
 * Under a debugger rt compiles CommonJS files as scripts (see compileCommonJsAsScripts), so such
 * a script's one statement, at line 0 column 0, is Node's wrapper function around the file. A
 * breakpoint on the file's first line (a client's, or the entry stop) resolves to that statement
 * and stops before the module's code has started: a step from there leaves the file. So a stop
 * there is resumed, hidden from the client, to a one-shot breakpoint on the module's first
 * statement; the client sees that stop, with the breakpoints the first one hit.
 */
class CommonJsWrapperStops {
  /** Scripts that are CommonJS files. */
  private readonly wrapped = new Set<string>();
  private moving: { oneShot: string | undefined; hitBreakpoints: readonly string[] } | undefined;

  constructor(
    private readonly post: Post,
    private readonly resumeHidden: () => void,
  ) {}

  /** Whether the client should not see this notification (a moved stop is edited in place). */
  hides(message: { method: string; params?: any }): boolean {
    if (message.method === "Debugger.scriptParsed" && !message.params.isModule && String(message.params.url).startsWith("file:"))
      this.wrapped.add(message.params.scriptId);
    if (message.method !== "Debugger.paused") return false;
    const moving = this.moving;
    if (moving?.oneShot && message.params.hitBreakpoints?.includes(moving.oneShot)) {
      void this.post("Debugger.removeBreakpoint", { breakpointId: moving.oneShot });
      this.moving = undefined;
      message.params.hitBreakpoints = [...moving.hitBreakpoints, ...message.params.hitBreakpoints.filter((id: string) => id !== moving.oneShot)];
      return false;
    }
    if (!isCommonJsWrapperStop(message.params, (scriptId) => this.wrapped.has(scriptId))) return false;
    const top = message.params.callFrames[0].location;
    const next = { oneShot: undefined as string | undefined, hitBreakpoints: message.params.hitBreakpoints ?? [] };
    this.moving = next;
    void this.firstStatement(top.scriptId)
      .then((location) => this.post("Debugger.setBreakpoint", { location }))
      .then((result) => {
        next.oneShot = result?.breakpointId;
        this.resumeHidden();
      });
    return true;
  }

  /**
   * The wrapper's first statement: its first break location, asked from inside its body but before
   * the file's text, so that V8 lists the wrapper's own locations (a breakpoint set at the file's
   * first column would land inside a function declared there, stopping on its first call).
   */
  private async firstStatement(scriptId: string): Promise<{ scriptId: string; lineNumber: number; columnNumber: number }> {
    const bodyColumn = (require("node:module") as { wrapper: readonly string[] }).wrapper[0]!.length;
    const possible = await this.post("Debugger.getPossibleBreakpoints", {
      start: { scriptId, lineNumber: 0, columnNumber: bodyColumn - 1 },
      restrictToFunction: true,
    });
    const first = (possible?.locations as { lineNumber: number; columnNumber: number }[] | undefined)?.[0];
    return { scriptId, lineNumber: first?.lineNumber ?? 0, columnNumber: first?.columnNumber ?? bodyColumn };
  }
}

/**
 * rt's own worker threads (the secrets store, the installer, this server) are not the program's.
 * A client that follows workers (NodeWorker.enable with waitForDebuggerOnStart, as debug adapters
 * do) would hold each at its start, and rt.secrets or auto-install would wait for nothing: the
 * bridge lets each one run (Runtime.runIfWaitingForDebugger in the worker's own session), detaches
 * and shows the client none of it, so no debugger lists, pauses or steps into them.
 */
class InternalWorkers {
  private readonly sessions = new Set<string>();

  constructor(private readonly post: Post) {}

  /** Whether the client should not see this notification. */
  hides(message: { method: string; params?: any }): boolean {
    const params = message.params;
    switch (message.method) {
      case "NodeWorker.attachedToWorker": {
        if (!isInternal(params.workerInfo.url)) return false;
        const { sessionId } = params;
        this.sessions.add(sessionId);
        // Sent before the detach, in order: the worker runs before its session goes.
        if (params.waitingForDebugger)
          void this.post("NodeWorker.sendMessageToWorker", { sessionId, message: JSON.stringify({ id: 1, method: "Runtime.runIfWaitingForDebugger" }) });
        void this.post("NodeWorker.detach", { sessionId });
        return true;
      }
      case "NodeWorker.receivedMessageFromWorker":
        return this.sessions.has(params.sessionId);
      case "NodeWorker.detachedFromWorker":
        return this.sessions.delete(params.sessionId);
      default:
        return false;
    }
  }
}

/**
 * The program's worker threads the client attached to (NodeWorker). When the client goes, each is
 * detached first: Node leaves a worker's session in place when the session that attached it
 * disconnects, so a worker paused at that moment stayed paused and the program never ended.
 * Detached, it runs on, as the main thread does when a client leaves it paused.
 */
class ProgramWorkers {
  private readonly sessions = new Set<string>();

  observe(message: { method: string; params?: any }): void {
    if (message.method === "NodeWorker.attachedToWorker") this.sessions.add(message.params.sessionId);
    else if (message.method === "NodeWorker.detachedFromWorker") this.sessions.delete(message.params.sessionId);
  }

  /** Posted before the session's disconnect, which the main thread takes after them, in order. */
  detachAll(session: InspectorSession): void {
    for (const sessionId of this.sessions) session.post("NodeWorker.detach", { sessionId });
    this.sessions.clear();
  }
}

function bridge(client: WebSocket): void {
  const session = newSession();
  session.connectToMainThread();
  const post: Post = (method, params) => new Promise<any>((resolve) => session.post(method, params, (error, result) => resolve(error ? undefined : result)));
  // Stops the bridge resumes itself are not the client's: nor is the `resumed` event each causes
  // (the session's events arrive in order, so exactly one follows each).
  let hiddenResumes = 0;
  const resumeHidden = () => {
    hiddenResumes++;
    void post("Debugger.resume");
  };
  let entryBreak: EntryBreak | undefined;
  const wrapperStops = new CommonJsWrapperStops(post, resumeHidden);
  const internalWorkers = new InternalWorkers(post);
  const programWorkers = new ProgramWorkers();
  Atomics.add(state, STATE.clients, 1);
  const ending = new ProgramEnd(post);
  const internalFrames = new InternalFrames();
  const cachedMaps = new CachedMaps(data.mapDirectory);
  const reply = (message: object) => {
    if (client.readyState === client.OPEN) client.send(JSON.stringify(message));
  };
  session.on("inspectorNotification", (message) => {
    if (message.method === "Debugger.resumed" && hiddenResumes > 0) {
      hiddenResumes--;
      return;
    }
    const notification = message as { method: string; params?: any };
    ending.observe(notification);
    internalFrames.observe(notification);
    cachedMaps.inline(notification);
    // The wrapper's stop is moved first: the entry break then sees the moved one.
    if (internalWorkers.hides(notification)) return;
    programWorkers.observe(notification);
    if (!wrapperStops.hides(notification) && !entryBreak?.hides(notification)) reply(internalFrames.strip(notification));
  });
  const toldOfEnd = () => void ending.notice().then((notice) => notice && reply(notice));
  endListeners.add(toldOfEnd);

  client.on("message", (raw) => {
    let message: { id?: unknown; method?: unknown; params?: unknown };
    try {
      message = JSON.parse(String(raw));
    } catch {
      return reply({ id: null, error: { code: PARSE_ERROR, message: "Message is not valid JSON" } });
    }
    const { id: messageId, method, params } = message ?? {};
    if (
      typeof messageId !== "number" ||
      typeof method !== "string" ||
      (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params)))
    ) {
      return reply({
        id: typeof messageId === "number" ? messageId : null,
        error: { code: INVALID_REQUEST, message: "Expected {id: number, method: string, params?: object}" },
      });
    }
    // Only a session (whose holder can run code here anyway) learns where rt is installed.
    if (method === INTERNAL_URLS_METHOD) return reply({ id: messageId, result: { prefixes: internalPrefixes() } });
    if (method === "NodeRuntime.notifyWhenWaitingForDisconnect") ending.notifyWhenWaiting = (params as { enabled?: unknown } | undefined)?.enabled === true;
    if (method === "Runtime.runIfWaitingForDebugger") {
      // Releases a program started with --inspect-wait / --inspect-brk (armed first).
      if (breakOnStartPending) {
        breakOnStartPending = false;
        entryBreak = new EntryBreak(post, resumeHidden);
      }
      void (entryBreak?.arm() ?? Promise.resolve()).then(() => {
        Atomics.store(state, STATE.released, 1);
        Atomics.notify(state, STATE.released);
      });
    }
    session.post(method, params as object | undefined, (error, result) => {
      if (!error) return reply({ id: messageId, result: result ?? {} });
      // node:inspector reports protocol errors only as text: "Inspector error <code>: <message>".
      const match = /^Inspector error (-?\d+): ([\s\S]*)$/.exec(error.message);
      reply({ id: messageId, error: match ? { code: Number(match[1]), message: match[2] } : { code: SERVER_ERROR, message: error.message } });
    });
  });
  // Bad frames close the connection (ws answers them with a close frame): nothing to add.
  client.on("error", () => {});
  // A client that goes away while the program is paused lets it run on; an ended program waits
  // for the last one (start.ts).
  client.on("close", () => {
    endListeners.delete(toldOfEnd);
    programWorkers.detachAll(session);
    session.disconnect();
    Atomics.sub(state, STATE.clients, 1);
    Atomics.notify(state, STATE.clients);
  });
}

/** What each connected client is told once the program has ended. */
const endListeners = new Set<() => void>();

/** The program ended with clients attached (start.ts waits for them): no new ones, as in Node; tell each. */
function watchForEnd(server: TcpServer): void {
  // (ES2024's Atomics.waitAsync; the project's TypeScript library stops at ES2023.)
  const { waitAsync } = Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): { value: Promise<string> | string } };
  void Promise.resolve(waitAsync(state, STATE.ended, 0).value).then(() => {
    server.close();
    for (const tell of endListeners) tell();
  });
}

/**
 * How a client learns that the program has ended, as from Node: NodeRuntime.waitingForDisconnect
 * if it asked for it (NodeRuntime.notifyWhenWaitingForDisconnect), else the default context's
 * Runtime.executionContextDestroyed. Unlike in Node the context still answers: the client can
 * evaluate (process.exitCode, say) until it disconnects.
 */
class ProgramEnd {
  notifyWhenWaiting = false;
  private context: { id: number; uniqueId: string } | undefined;

  constructor(private readonly post: Post) {}

  observe(message: { method: string; params?: any }): void {
    if (message.method === "Runtime.executionContextCreated" && message.params.context.auxData?.isDefault) this.context = message.params.context;
  }

  /** The notification, sent after every message the program sent before it ended (a round trip to its thread). */
  async notice(): Promise<object | undefined> {
    await this.post("Runtime.getIsolateId");
    if (this.notifyWhenWaiting) return { method: "NodeRuntime.waitingForDisconnect", params: {} };
    if (!this.context) return undefined;
    return { method: "Runtime.executionContextDestroyed", params: { executionContextId: this.context.id, executionContextUniqueId: this.context.uniqueId } };
  }
}

/**
 * A large transpiled file's source map is a file beside its entry in rt's transpiler cache
 * (TranspileCache.set), which a page (the web debugger, DevTools) or a client on another machine
 * cannot read: clients get it inline, as the map of every other transpiled file. Node's inspector
 * (SIGUSR1, inspector.open()) names the file, which local clients and coverage tools read.
 */
class CachedMaps {
  private readonly prefix: string | undefined;

  constructor(directory: string | undefined) {
    // Named by path (TranspileCache.set), resolved against the script's file: URL.
    this.prefix = directory === undefined ? undefined : `${pathReference(directory)}/`;
  }

  inline(message: { method: string; params?: any }): void {
    const prefix = this.prefix;
    if (prefix === undefined) return;
    if (message.method === "Debugger.scriptParsed") this.inlineIn(message.params, prefix);
    else if (message.method === "NodeWorker.receivedMessageFromWorker" && String(message.params.message).includes(prefix)) {
      // A worker thread's scripts come wrapped, as the text of the worker session's message.
      const inner = JSON.parse(message.params.message) as { method?: string; params?: any };
      if (inner.method === "Debugger.scriptParsed" && this.inlineIn(inner.params, prefix)) message.params.message = JSON.stringify(inner);
    }
  }

  private inlineIn(params: { sourceMapURL?: string }, prefix: string): boolean {
    const url = params.sourceMapURL;
    if (url === undefined || !url.startsWith(prefix)) return false;
    try {
      params.sourceMapURL = `data:application/json;base64,${readFileSync(new URL(url, "file:///")).toString("base64")}`;
      return true;
    } catch {
      return false; // pruned meanwhile: the client is left the file's name
    }
  }
}

/**
 * rt's own frames (its launcher and bundle, which load the program) are not the program's: left
 * off the stacks a client shows (call stacks of stops, console messages and exceptions), as
 * Node's inspector shows no loader of its own either. A stop inside rt keeps its whole stack.
 */
class InternalFrames {
  /** rt's scripts, by id (a stop's frames name their script by id only). */
  private readonly scripts = new Set<string>();

  observe(message: { method: string; params?: any }): void {
    if (message.method === "Debugger.scriptParsed" && isInternal(message.params.url)) this.scripts.add(message.params.scriptId);
  }

  strip(message: { method: string; params?: any }): object {
    const params = message.params;
    if (message.method === "Debugger.paused") {
      const frames: Frame[] = params.callFrames;
      if (frames.length && !this.internal(frames[0]!)) params.callFrames = frames.filter((frame) => !this.internal(frame));
      params.asyncStackTrace = this.stripTrace(params.asyncStackTrace);
    }
    if (message.method === "Runtime.consoleAPICalled") params.stackTrace = this.stripTrace(params.stackTrace);
    if (message.method === "Runtime.exceptionThrown" && params.exceptionDetails)
      params.exceptionDetails.stackTrace = this.stripTrace(params.exceptionDetails.stackTrace);
    return message;
  }

  /** A Runtime.StackTrace without rt's frames; a (parent) part left empty goes. */
  private stripTrace(trace: StackTrace | undefined, top = true): StackTrace | undefined {
    if (!trace) return undefined;
    const parent = this.stripTrace(trace.parent, false);
    const callFrames =
      top && trace.callFrames[0] && this.internal(trace.callFrames[0]) ? trace.callFrames : trace.callFrames.filter((frame) => !this.internal(frame));
    if (!callFrames.length && !top) return parent;
    return { ...trace, callFrames, parent };
  }

  private internal(frame: Frame): boolean {
    return this.scripts.has(frame.location?.scriptId ?? frame.scriptId ?? "") || (frame.url !== undefined && isInternal(frame.url));
  }
}

interface StackTrace {
  callFrames: Frame[];
  parent?: StackTrace;
}

/** A Debugger.CallFrame (script by location) or a Runtime.CallFrame (script id and URL). */
interface Frame {
  url?: string;
  scriptId?: string;
  location?: { scriptId: string };
}

let internal: readonly string[] | undefined;

function internalPrefixes(): readonly string[] {
  internal ??= internalUrls(path.dirname(data.uiDirectory));
  return internal;
}

function isInternal(url: string): boolean {
  return url !== "" && internalPrefixes().some((prefix) => url.startsWith(prefix));
}
