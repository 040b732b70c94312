// --fetch-preconnect: DNS, TCP and TLS to an origin start before the program's code loads, and
// the program's first fetch() to that origin sends its request on that connection.
// fetch() takes its connections from the global undici dispatcher (an Agent Node creates at
// start). Requests to a preconnected origin go to an Agent of the same class whose connector
// hands out the open socket once; everything else keeps going to Node's own Agent.
import * as net from "node:net";
import * as tls from "node:tls";

const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");

interface ConnectOptions {
  hostname: string;
  protocol: string;
  port: string;
  servername?: string;
}
type Connector = (options: ConnectOptions, callback: (error: Error | null, socket: net.Socket | null) => void) => void;
interface Dispatcher {
  dispatch(options: { origin?: string | URL }, handler: unknown): boolean;
}

export function preconnect(urls: readonly URL[]): void {
  // The sockets first: DNS, TCP and TLS proceed while Node's undici loads below (~10 ms).
  const sockets = new Map<string, net.Socket>();
  for (const url of urls) {
    if (sockets.has(url.origin)) continue;
    const socket = open(url.hostname, url.port || (url.protocol === "https:" ? "443" : "80"), url.protocol);
    // The socket waits unreferenced (a program that never fetches still exits) and its error, if
    // any, is the first fetch's to report: that fetch then connects anew.
    sockets.set(
      url.origin,
      socket.unref().on("error", () => {}),
    );
  }
  // Node creates its global Agent when undici first loads; reading the WebSocket global loads it.
  void globalThis.WebSocket;
  const nodeAgent = (globalThis as Record<symbol, Dispatcher | undefined>)[GLOBAL_DISPATCHER];
  if (!nodeAgent) return; // a Node without a global dispatcher: nothing to hand the sockets to
  const Agent = nodeAgent.constructor as new (options: { connect: Connector }) => Dispatcher;
  const agents = new Map<string, Dispatcher>();
  for (const [origin, preconnected] of sockets) {
    let socket: net.Socket | undefined = preconnected;
    const connect: Connector = (options, callback) => {
      const ready = socket;
      socket = undefined;
      if (ready && !ready.destroyed) handOver(ready.ref(), callback);
      else handOver(open(options.hostname, options.port, options.protocol, options.servername), callback);
    };
    agents.set(origin, new Agent({ connect }));
  }
  const router = Object.create(nodeAgent as object) as Dispatcher;
  router.dispatch = (options, handler) =>
    (agents.get(typeof options.origin === "string" ? options.origin : String(options.origin?.origin)) ?? nodeAgent).dispatch(options, handler);
  (globalThis as Record<symbol, Dispatcher>)[GLOBAL_DISPATCHER] = router;
}

const established = new WeakSet<net.Socket>();

function open(hostname: string, port: string, protocol: string, servername?: string): net.Socket {
  const host = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  const options = { host, port: Number(port), noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 };
  const socket =
    protocol === "https:"
      ? tls.connect({ ...options, servername: servername ?? (net.isIP(host) ? undefined : host), ALPNProtocols: ["http/1.1"] })
      : net.connect(options);
  socket.once(connectedEvent(socket), () => established.add(socket));
  return socket;
}

/** Gives undici the socket once it is connected (and, for TLS, verified). */
function handOver(socket: net.Socket, callback: Parameters<Connector>[1]): void {
  // Asynchronously even when ready: undici's client sets up its connection state after it
  // calls the connector, and a socket given back synchronously never gets its request written.
  if (established.has(socket)) return process.nextTick(callback, null, socket);
  const onError = (error: Error) => callback(error, null);
  socket.once("error", onError).once(connectedEvent(socket), () => {
    socket.off("error", onError);
    callback(null, socket);
  });
}

function connectedEvent(socket: net.Socket): string {
  return socket instanceof tls.TLSSocket ? "secureConnect" : "connect";
}
