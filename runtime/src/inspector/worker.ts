// The inspector server, on its own thread so it keeps answering while the program is paused:
// HTTP for target discovery (/json/version, /json/list) and rt's web debugger, and a WebSocket
// per client bridged to a V8 inspector session connected to the main thread.
//
// Startup is on the critical path of `rt --inspect` (the program waits for the banner, which
// needs the port): the thread boots while rt loads the program, gets its settings as its first
// message and listens with a plain TCP server; node:http, the WebSocket library, the inspector
// module and the web debugger's files load when a client first needs them.
import { readFileSync } from "node:fs";
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import type { Session as InspectorSession } from "node:inspector";
import { connect, createServer as createTcpServer, isIP } from "node:net";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort } from "node:worker_threads";
import type { WebSocket, WebSocketServer } from "ws";
import { hostPort } from "./address.js";
import { FLUSH_MARKER, STATE, type InspectorSettings } from "./shared.js";
import { isCommonJsWrapperStop, isHoldingStop } from "./stop-policy.js";

declare const RT_VERSION: string;

// Set by the first message, before the server listens: every request handler can use them.
let data!: InspectorSettings;
let state!: Int32Array;

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
  http = (require("node:http") as typeof import("node:http")).createServer(serveHttp);
  http.on("upgrade", (request: IncomingMessage, socket, head) => {
    const refusal = refuse(request);
    if (refusal || new URL(request.url ?? "/", "http://x").pathname !== wsPath()) {
      socket.end(`HTTP/1.1 ${refusal ? "403 Forbidden" : "404 Not Found"}\r\nConnection: close\r\n\r\n`);
      return;
    }
    sockets ??= webSocketServer();
    sockets.handleUpgrade(request, socket, head, (client) => bridge(client));
  });
  return http;
}

function webSocketServer(): WebSocketServer {
  return new (require("ws") as typeof import("ws")).WebSocketServer({ noServer: true });
}

parentPort!.once("message", (settings: InspectorSettings) => {
  data = settings;
  state = new Int32Array(data.shared);
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
  });
  // (The main thread unrefs this thread: the server does not keep the program alive.)
});

/**
 * RT_INSPECT_NOTIFY: tells the debug adapter that launched rt where to connect (and which process
 * to stop: under runInTerminal it has no handle of its own), without it having to read (or own)
 * rt's stderr. Best effort: an adapter that went away is no error.
 */
function notifyAdapter(socketPath: string, port: number): void {
  // The main thread writes the session id right after sending the settings: wait for it.
  Atomics.wait(state, STATE.idLength, 0, 1000);
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

/**
 * DNS-rebinding protection, as Node's inspector does: the Host must be an IP literal or
 * localhost; a browser page may connect only from rt's own debugger page or from DevTools.
 */
function refuse(request: IncomingMessage): boolean {
  const host = request.headers.host;
  if (!host) return true;
  const hostname = new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, "");
  if (!isIP(hostname) && hostname !== "localhost" && !hostname.endsWith(".localhost")) return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  return !(origin === `http://${host}` || origin.startsWith("devtools://"));
}

function targetUrls(host: string, socketPath: string) {
  return {
    webSocketDebuggerUrl: `ws://${host}${socketPath}`,
    devtoolsFrontendUrl: `devtools://devtools/bundled/js_app.html?experiments=true&v8only=true&ws=${host}${socketPath}`,
  };
}

const ASSETS: Readonly<Record<string, string>> = {
  "/": "index.html",
  "/index.html": "index.html",
  "/app.js": "app.js",
  "/style.css": "style.css",
};
const TYPES: Readonly<Record<string, string>> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };

function serveHttp(request: IncomingMessage, response: ServerResponse): void {
  const send = (status: number, type: string, body: string | Buffer) => {
    response.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
    response.end(body);
  };
  if (refuse(request)) return send(403, "text/plain", "Forbidden: Host or Origin not allowed\n");
  const { pathname } = new URL(request.url ?? "/", "http://x");
  const host = request.headers.host!;
  const socketPath = wsPath();
  if (!socketPath) return send(503, "text/plain", "Starting\n");
  if (pathname === "/json/version") {
    return send(200, "application/json", JSON.stringify({ Browser: `rt/${RT_VERSION}`, "Protocol-Version": "1.3", "V8-Version": process.versions.v8 }));
  }
  if (pathname === "/json" || pathname === "/json/list") {
    const target = { description: "rt instance", id: socketPath.slice(1), title: path.basename(data.entry), type: "node", url: data.entryUrl, ...targetUrls(host, socketPath) };
    return send(200, "application/json", JSON.stringify([target]));
  }
  if (pathname === "/rt.json") {
    // What the web debugger leaves out of its file list: rt's own launcher and bundle.
    const dist = path.dirname(data.uiDirectory);
    const internal = [dist, path.join(dist, "..", "bin")].map((dir) => `${pathToFileURL(dir).href}/`);
    return send(200, "application/json", JSON.stringify({ internal }));
  }
  if (pathname === socketPath) return send(426, "text/plain", "Upgrade Required: this is the inspector's WebSocket\n");
  const asset = ASSETS[pathname];
  if (!asset) return send(404, "text/plain", "Not Found\n");
  const file = path.join(data.uiDirectory, asset);
  return send(200, TYPES[path.extname(file)]!, readFileSync(file));
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
      // The stop the client sees: an ordinary pause at the entry's first statement.
      void this.post("Debugger.removeBreakpoint", { breakpointId: this.firstStatement });
      this.firstStatement = undefined;
      return false;
    }
    if (!isHoldingStop(message.params) || !this.instrumentation) return false;
    if (message.params.data?.url === data.entryUrl) {
      // Steps don't work from an instrumentation stop: go on to a breakpoint on the same spot.
      void this.post("Debugger.removeInstrumentationBreakpoint", { breakpointId: this.instrumentation });
      this.instrumentation = undefined;
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
    if (message.method === "Debugger.scriptParsed" && !message.params.isModule && String(message.params.url).startsWith("file:")) this.wrapped.add(message.params.scriptId);
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
    const possible = await this.post("Debugger.getPossibleBreakpoints", { start: { scriptId, lineNumber: 0, columnNumber: bodyColumn - 1 }, restrictToFunction: true });
    const first = (possible?.locations as { lineNumber: number; columnNumber: number }[] | undefined)?.[0];
    return { scriptId, lineNumber: first?.lineNumber ?? 0, columnNumber: first?.columnNumber ?? bodyColumn };
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
  Atomics.add(state, STATE.clients, 1);
  session.on("inspectorNotification", (message) => {
    const params = message.params as { args?: { value?: unknown }[] } | undefined;
    if (message.method === "Runtime.consoleAPICalled" && params?.args?.[0]?.value === FLUSH_MARKER) {
      // Everything before the marker is queued on the socket ahead of this ping.
      const done = () => {
        Atomics.store(state, STATE.flushed, 1);
        Atomics.notify(state, STATE.flushed);
      };
      if (client.readyState === client.OPEN) client.ping(undefined, undefined, done);
      else done();
      return;
    }
    if (message.method === "Debugger.resumed" && hiddenResumes > 0) {
      hiddenResumes--;
      return;
    }
    const notification = message as { method: string; params?: unknown };
    // The wrapper's stop is moved first: the entry break then sees the moved one.
    if (!wrapperStops.hides(notification) && !entryBreak?.hides(notification)) client.send(JSON.stringify(message));
  });
  const reply = (message: object) => {
    if (client.readyState === client.OPEN) client.send(JSON.stringify(message));
  };

  client.on("message", (raw) => {
    let message: { id?: unknown; method?: unknown; params?: unknown };
    try {
      message = JSON.parse(String(raw));
    } catch {
      return reply({ id: null, error: { code: PARSE_ERROR, message: "Message is not valid JSON" } });
    }
    const { id: messageId, method, params } = message ?? {};
    if (typeof messageId !== "number" || typeof method !== "string" || (params !== undefined && (typeof params !== "object" || params === null))) {
      return reply({ id: typeof messageId === "number" ? messageId : null, error: { code: INVALID_REQUEST, message: "Expected {id: number, method: string, params?: object}" } });
    }
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
  // A client that goes away while the program is paused lets it run on.
  client.on("close", () => {
    Atomics.sub(state, STATE.clients, 1);
    session.disconnect();
  });
}
