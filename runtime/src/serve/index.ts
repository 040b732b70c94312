// rt.serve: a web-standard fetch handler on Node's HTTP server. The bridge between node:http and
// Request/Response is @hono/node-server's: its Request and Response create undici's objects only
// when a handler needs one (a plain `new Response("text")` is written straight to the socket),
// which keeps a hello-world within a few percent of a bare node:http handler (bench/serve.mjs).
import cluster from "node:cluster";
import * as http from "node:http";
import { type AddressInfo, isIP } from "node:net";
import { getRequestListener, RequestError } from "@hono/node-server";
import type { ServeOptions, Server } from "rt-runtime/types/rt";
import { hasBody, readBodyOnce } from "./body.js";

/** What the command line decides: --port. */
export interface ServeDefaults {
  readonly port: number | undefined;
}

const DEFAULT_PORT = 3000;
/** Bun.serve's default maxRequestBodySize. */
const DEFAULT_MAX_REQUEST_BODY_SIZE = 128 * 1024 * 1024;
/** A Host the adapter builds the request's URL from without a second look (its own fast test). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::\d{1,4})?$/;
// Node's own classes, before the adapter's first listener replaces the globals.
const NodeRequest = globalThis.Request;
const NodeResponse = globalThis.Response;

export function serve(options: ServeOptions, defaults: ServeDefaults): Server {
  if (typeof options !== "object" || options === null || typeof options.fetch !== "function") {
    throw argumentError("ERR_INVALID_ARG_TYPE", 'rt.serve(options) needs a fetch(request) function, e.g. rt.serve({ fetch: () => new Response("hi") })');
  }
  if (options.error !== undefined && typeof options.error !== "function") {
    throw argumentError("ERR_INVALID_ARG_TYPE", `rt.serve: options.error must be a function, got ${typeof options.error}`);
  }
  if (options.hostname !== undefined && (typeof options.hostname !== "string" || options.hostname === "")) {
    throw argumentError("ERR_INVALID_ARG_VALUE", `rt.serve: options.hostname must be a non-empty string, got ${JSON.stringify(options.hostname)}`);
  }
  const limit = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  if (typeof limit !== "number" || !(limit >= 0)) {
    throw argumentError("ERR_INVALID_ARG_VALUE", `rt.serve: options.maxRequestBodySize must be a number of bytes >= 0, got ${JSON.stringify(limit)}`);
  }
  const port = chosenPort(options.port, defaults.port);
  return new RtServer(options, port, limit);
}

/** What a request body over maxRequestBodySize makes reading it fail with; answered with 413. */
class BodyTooLarge extends RangeError {
  readonly code = "ERR_BODY_TOO_LARGE";
}

class RtServer implements Server {
  readonly #http: http.Server;
  readonly #requestedPort: number;
  readonly #hostname: string | undefined;
  /** Listening waits for the hostname to resolve. */
  #resolving = false;

  constructor(options: ServeOptions, port: number, maxBodySize: number) {
    this.#requestedPort = port;
    this.#hostname = options.hostname;
    const handler = options.fetch;
    // rt.serve makes HTTP/1.1 servers only: `incoming` is node:http's.
    const fetch = (request: Request, { incoming }: { incoming: object }) => {
      if (hasBody(incoming as http.IncomingMessage)) readBodyOnce(request, incoming as http.IncomingMessage);
      return checkedResponse(handler.call(this, request, this));
    };
    const adapter = getRequestListener(fetch, { errorHandler: (error) => this.#failed(options, error) });
    keepInstanceOf();
    // Node answers a header block over http.maxHeaderSize (--max-http-header-size) with 431 itself.
    this.#http = http.createServer((incoming, outgoing) => {
      // HTTP/1.0 and 0.9 may leave Host out, and any Host may be one no URL can hold (node:http
      // serves those; HTTP/1.1 without Host gets Node's 400): the URL gets the server's own.
      if (!usableHost(incoming.headers.host) && incoming.url?.startsWith("/")) incoming.url = `http://${this.url.host}${incoming.url}`;
      if (limitBody(incoming, outgoing, maxBodySize)) void adapter(incoming, outgoing);
    });
    this.#http.on("error", (error: NodeJS.ErrnoException) => {
      throw listenError(error, this.#hostname ?? "0.0.0.0", port);
    });
    // Without a hostname (or with 0.0.0.0) Node binds every interface, IPv6 too, synchronously:
    // `port` is known as soon as rt.serve returns, port 0 included, as with Bun.serve. For an IP
    // address, listen() would wait a tick for a lookup it does not need: _listen2 (the step
    // listen() takes after resolving, kept by that name for code that wraps it) binds now. A
    // name (localhost) must be resolved first: its port is known once 'listening' has fired.
    const family = this.#hostname === undefined ? 0 : isIP(this.#hostname);
    const listenNow = (this.#http as Partial<ListenNow>)._listen2;
    if (this.#hostname === undefined || this.#hostname === "0.0.0.0") this.#http.listen(port);
    else if (family !== 0 && cluster.isPrimary && typeof listenNow === "function") listenNow.call(this.#http, this.#hostname, port, family, 511, undefined, 0);
    else {
      this.#resolving = true;
      this.#http.listen(port, this.#hostname, () => (this.#resolving = false));
    }
  }

  get port(): number {
    return (this.#http.address() as AddressInfo | null)?.port ?? this.#requestedPort;
  }

  get hostname(): string {
    return this.#hostname === undefined || this.#hostname === "0.0.0.0" || this.#hostname === "::" ? "localhost" : this.#hostname;
  }

  get url(): URL {
    const host = this.hostname.includes(":") ? `[${this.hostname}]` : this.hostname;
    return new URL(`http://${host}:${this.port}/`);
  }

  /** Stops listening; open requests finish unless closeActiveConnections. Resolves once closed. */
  stop(closeActiveConnections = false): Promise<void> {
    return new Promise((resolve) => {
      // Stopped before its name resolved: it closes once bound.
      if (this.#resolving) return void this.#http.once("listening", () => this.#http.close(() => resolve()));
      if (!this.#http.listening) return resolve();
      this.#http.close(() => resolve());
      if (closeActiveConnections) this.#http.closeAllConnections();
      else this.#http.closeIdleConnections();
    });
  }

  get [Symbol.toStringTag](): string {
    return "Server";
  }

  /** The program's error handler, else a logged error and a 500; a response is always sent. */
  async #failed(options: ServeOptions, error: unknown): Promise<Response> {
    // Refused before any handler ran (a target no URL can hold): the client's mistake, not logged.
    if (error instanceof RequestError) return plainText(400, "Bad Request");
    // The body went over maxRequestBodySize while the handler read it, and it did not catch that.
    if (error instanceof BodyTooLarge) return plainText(413, "Payload Too Large");
    if (options.error) {
      try {
        return checkedResponse(await options.error.call(this, error as Error)) as Response;
      } catch (handlerError) {
        console.error(handlerError);
        return internalError();
      }
    }
    console.error(error);
    return internalError();
  }
}

/**
 * The adapter replaces globalThis.Request and Response by subclasses of Node's. Their instances
 * are instances of Node's classes, but what fetch() returns (Node's own) would not be instances
 * of the new globals: `instanceof` on either global now accepts both.
 */
function keepInstanceOf(): void {
  for (const [current, original] of [
    [globalThis.Request, NodeRequest],
    [globalThis.Response, NodeResponse],
  ] as const) {
    if (current === original || Object.hasOwn(current, Symbol.hasInstance)) continue;
    Object.defineProperty(current, Symbol.hasInstance, { value: (value: unknown) => value instanceof original });
  }
}

/** net.Server's bind step (see RtServer's constructor). */
interface ListenNow {
  _listen2(address: string, port: number, family: number, backlog: number, fd: undefined, flags: number): void;
}

/** Whether the adapter can make the request's URL from this Host (its own test, spelled out). */
function usableHost(host: string | undefined): boolean {
  if (!host) return false;
  if (PLAIN_HOST.test(host)) return true;
  if (!URL.canParse(`http://${host}/`)) return false;
  const { hostname } = new URL(`http://${host}/`);
  return hostname.length === host.length || hostname === host.replace(/:\d+$/, "").toLowerCase();
}

/**
 * maxRequestBodySize: a Content-Length over it is answered with 413 before the handler runs; a
 * chunked body is counted as it arrives, and going over makes reading it fail (a 413 unless the
 * handler catches that) and closes the connection after the response. False when answered here.
 */
function limitBody(incoming: http.IncomingMessage, outgoing: http.ServerResponse, limit: number): boolean {
  const declared = incoming.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) {
    outgoing.writeHead(413, { "content-type": "text/plain;charset=utf-8", connection: "close" }).end("Payload Too Large");
    return false;
  }
  if (declared !== undefined || incoming.headers["transfer-encoding"] === undefined) return true;
  let received = 0;
  const push = incoming.push;
  incoming.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
    if (chunk === null || (received += chunk.length) <= limit) return push.call(incoming, chunk, encoding);
    if (!incoming.destroyed) tooLarge(incoming, outgoing, limit);
    return false;
  };
  return true;
}

function tooLarge(incoming: http.IncomingMessage, outgoing: http.ServerResponse, limit: number): void {
  if (outgoing.writableFinished) return void incoming.socket.destroy();
  if (!outgoing.headersSent) outgoing.setHeader("connection", "close");
  // Fails the body's readers but keeps the socket, which the response still needs.
  incoming._destroy = (error, callback) => callback(error);
  incoming.destroy(new BodyTooLarge(`rt.serve: the request body is over maxRequestBodySize (${limit} bytes)`));
}

function plainText(status: number, text: string): Response {
  return new Response(text, { status, headers: { "content-type": "text/plain;charset=utf-8" } });
}

function internalError(): Response {
  return plainText(500, "Internal Server Error");
}

/** A handler's result, or a TypeError that says what it returned instead. */
function checkedResponse(result: unknown): unknown {
  // Node's class: the adapter's responses are instances of it too.
  if (result instanceof NodeResponse) return result;
  if (typeof (result as PromiseLike<unknown> | null)?.then === "function") return Promise.resolve(result).then(mustBeResponse);
  return mustBeResponse(result);
}

function mustBeResponse(result: unknown): Response {
  if (result instanceof NodeResponse) return result;
  const got = result === null ? "null" : typeof result === "object" ? (result.constructor?.name ?? "an object") : typeof result;
  throw new TypeError(`rt.serve: fetch() must return a Response (or a promise of one), got ${got}`);
}

/** options.port, else --port, else $PORT, else 3000. */
function chosenPort(option: ServeOptions["port"], flag: number | undefined): number {
  if (option !== undefined) return validPort(option, "options.port");
  if (flag !== undefined) return flag;
  const env = process.env.PORT;
  if (env !== undefined && env !== "") return validPort(env, "$PORT");
  return DEFAULT_PORT;
}

function validPort(value: unknown, where: string): number {
  const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 65535) return n;
  throw argumentError("ERR_INVALID_ARG_VALUE", `rt.serve: ${where} must be a port number from 0 to 65535, got ${JSON.stringify(value)}`);
}

function argumentError(code: string, message: string): TypeError {
  return Object.assign(new TypeError(message), { code });
}

function listenError(cause: NodeJS.ErrnoException, host: string, port: number): Error {
  const reasons: Record<string, string> = {
    EADDRINUSE: "the port is already in use: stop the program using it, or pass another port",
    EACCES: "permission denied: ports below 1024 need privileges; pass a port from 1024",
    EADDRNOTAVAIL: "the address is not one of this machine's",
    ENOTFOUND: "the hostname does not resolve",
  };
  const reason = reasons[cause.code ?? ""] ?? cause.message;
  return Object.assign(new Error(`rt.serve could not listen on ${host}:${port}: ${reason} (${cause.code})`, { cause }), { code: cause.code });
}
