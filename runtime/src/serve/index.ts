// rt.serve: a web-standard fetch handler on Node's HTTP server. The bridge between node:http and
// Request/Response is @hono/node-server's: its Request and Response create undici's objects only
// when a handler needs one (a plain `new Response("text")` is written straight to the socket),
// which keeps a hello-world within a few percent of a bare node:http handler (bench/serve.mjs).
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { ServeOptions, Server } from "rt-runtime/types/rt";

/** What the command line decides: --port. */
export interface ServeDefaults {
  readonly port: number | undefined;
}

const DEFAULT_PORT = 3000;
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
  const port = chosenPort(options.port, defaults.port);
  return new RtServer(options, port);
}

class RtServer implements Server {
  readonly #http: http.Server;
  readonly #requestedPort: number;
  readonly #hostname: string | undefined;

  constructor(options: ServeOptions, port: number) {
    this.#requestedPort = port;
    this.#hostname = options.hostname;
    const handler = options.fetch;
    const fetch = (request: Request) => checkedResponse(handler.call(this, request, this));
    const listener = getRequestListener(fetch, { errorHandler: (error) => this.#failed(options, error) });
    keepInstanceOf();
    // Node answers a header block over http.maxHeaderSize (--max-http-header-size) with 431 itself.
    this.#http = http.createServer(listener);
    this.#http.on("error", (error: NodeJS.ErrnoException) => {
      throw listenError(error, this.#hostname ?? "0.0.0.0", port);
    });
    // Without a hostname (or with 0.0.0.0) Node binds every interface, IPv6 too, synchronously:
    // `port` is known as soon as rt.serve returns, port 0 included. A hostname is resolved first.
    if (this.#hostname === undefined || this.#hostname === "0.0.0.0") this.#http.listen(port);
    else this.#http.listen(port, this.#hostname);
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

function internalError(): Response {
  return new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain;charset=utf-8" } });
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
