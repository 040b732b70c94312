// The inspector server, on its own thread so it keeps answering while the program is paused:
// HTTP for target discovery (/json/version, /json/list) and rt's web debugger, and a WebSocket
// per client bridged to a V8 inspector session connected to the main thread.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Session } from "node:inspector";
import { isIP } from "node:net";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { workerData } from "node:worker_threads";
import { WebSocketServer, type WebSocket } from "ws";
import { STATE, type InspectorWorkerData } from "./shared.js";

declare const RT_VERSION: string;

const data = workerData as InspectorWorkerData;
const state = new Int32Array(data.shared);
const id = data.prefix ?? crypto.randomUUID();
const wsPath = `/${id}`;

const server = createServer(serveHttp);
const sockets = new WebSocketServer({ noServer: true });

server.on("upgrade", (request, socket, head) => {
  const refusal = refuse(request);
  if (refusal || new URL(request.url ?? "/", "http://x").pathname !== wsPath) {
    socket.end(`HTTP/1.1 ${refusal ? "403 Forbidden" : "404 Not Found"}\r\nConnection: close\r\n\r\n`);
    return;
  }
  sockets.handleUpgrade(request, socket, head, (client) => bridge(client));
});

server.on("error", (error: NodeJS.ErrnoException) => {
  Atomics.store(state, STATE.error, error.code === "EADDRINUSE" ? 1 : error.code === "EACCES" ? 2 : error.code === "EADDRNOTAVAIL" ? 3 : 4);
  Atomics.store(state, STATE.phase, 2);
  Atomics.notify(state, STATE.phase);
});

server.listen(data.port, data.host, () => {
  const address = server.address();
  Atomics.store(state, STATE.port, typeof address === "object" && address ? address.port : 0);
  new Uint8Array(data.shared, STATE.idOffset, id.length).set(Buffer.from(id, "latin1"));
  Atomics.store(state, STATE.idLength, id.length);
  Atomics.store(state, STATE.phase, 1);
  Atomics.notify(state, STATE.phase);
});
// (The main thread unrefs this thread: the server does not keep the program alive.)

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

function targetUrls(host: string) {
  return {
    webSocketDebuggerUrl: `ws://${host}${wsPath}`,
    devtoolsFrontendUrl: `devtools://devtools/bundled/js_app.html?experiments=true&v8only=true&ws=${host}${wsPath}`,
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
  if (pathname === "/json/version") {
    return send(200, "application/json", JSON.stringify({ Browser: `rt/${RT_VERSION}`, "Protocol-Version": "1.3", "V8-Version": process.versions.v8 }));
  }
  if (pathname === "/json" || pathname === "/json/list") {
    const target = { description: "rt instance", id, title: path.basename(data.entry), type: "node", url: data.entryUrl, ...targetUrls(host) };
    return send(200, "application/json", JSON.stringify([target]));
  }
  if (pathname === "/rt.json") {
    // What the web debugger leaves out of its file list: rt's own launcher and bundle.
    const dist = path.dirname(data.uiDirectory);
    const internal = [dist, path.join(dist, "..", "bin")].map((dir) => `${pathToFileURL(dir).href}/`);
    return send(200, "application/json", JSON.stringify({ internal }));
  }
  if (pathname === wsPath) return send(426, "text/plain", "Upgrade Required: this is the inspector's WebSocket\n");
  const asset = ASSETS[pathname];
  if (!asset) return send(404, "text/plain", "Not Found\n");
  const file = path.join(data.uiDirectory, asset);
  return send(200, TYPES[path.extname(file)]!, readFileSync(file));
}

/**
 * --inspect-brk: pause before the entry's code runs, at the top of the user's file, as
 * `node --inspect-brk` does. An instrumentation breakpoint stops before every script; this
 * thread lets the entry's dependencies go and keeps the pause at the entry. (A breakpoint on
 * "line 0" would land inside a hoisted function; Debugger.pause stops inside rt's own code.)
 */
/**
 * While --inspect-brk finds the entry, its stops are hidden from clients (they show as "other"
 * to them, so they cannot be told apart): each client's last pause is held back and delivered
 * once the stop at the entry's first statement is in place.
 */
let hidingStartPauses = false;
const releaseHeldPauses = new Set<() => void>();

function breakOnEntryStart(): void {
  hidingStartPauses = true;
  const session = new Session();
  session.connectToMainThread();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve) => session.post(method, params, (error, result) => resolve(error ? undefined : result)));
  let instrumentation: string | undefined;
  let firstStatement: string | undefined;
  session.on("Debugger.paused", async ({ params }) => {
    if (params.reason === "instrumentation") {
      const url = (params.data as { url?: string } | undefined)?.url;
      if (url === data.entryUrl) {
        // A clients' debugger may not resume an instrumentation pause of another session:
        // turn it into an ordinary breakpoint on the same spot, which any client can resume.
        await post("Debugger.removeInstrumentationBreakpoint", { breakpointId: instrumentation });
        firstStatement = (await post("Debugger.setBreakpoint", { location: params.callFrames[0]!.location }))?.breakpointId;
      }
      await post("Debugger.resume");
    } else if (firstStatement) {
      hidingStartPauses = false;
      for (const release of releaseHeldPauses) release();
      await post("Debugger.removeBreakpoint", { breakpointId: firstStatement });
      firstStatement = undefined;
      await post("Debugger.disable");
    }
  });
  void post("Debugger.enable").then(async () => {
    instrumentation = (await post("Debugger.setInstrumentationBreakpoint", { instrumentation: "beforeScriptExecution" }))?.breakpointId;
  });
}
if (data.breakOnStart) breakOnEntryStart();

/** JSON-RPC error codes the protocol uses. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const SERVER_ERROR = -32000;

function bridge(client: WebSocket): void {
  const session = new Session();
  session.connectToMainThread();
  let heldPause: object | undefined;
  const releaseHeldPause = () => {
    if (heldPause) client.send(JSON.stringify(heldPause));
    heldPause = undefined;
  };
  releaseHeldPauses.add(releaseHeldPause);
  session.on("inspectorNotification", (message) => {
    if (hidingStartPauses && message.method === "Debugger.paused") heldPause = message;
    else if (hidingStartPauses && message.method === "Debugger.resumed") heldPause = undefined;
    else client.send(JSON.stringify(message));
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
      // Releases a program started with --inspect-wait / --inspect-brk.
      Atomics.store(state, STATE.released, 1);
      Atomics.notify(state, STATE.released);
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
    releaseHeldPauses.delete(releaseHeldPause);
    session.disconnect();
  });
}
