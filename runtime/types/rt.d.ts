// Types for the "rt" module (declared in index.d.ts) and the `rt` global, for editors and `tsc`.

/** Which credential: a service (the program or site) and a name (the account) within it. */
export interface SecretsOptions {
  /** e.g. "my-cli"; 1 to 255 characters, no NUL. */
  readonly service: string;
  /** e.g. "alice"; 1 to 255 characters, no NUL. */
  readonly name: string;
}

/**
 * Credentials in the operating system's credential store: the macOS login keychain, the Secret
 * Service's default collection on Linux (gnome-keyring, KeePassXC), Windows Credential Manager.
 * Argument mistakes reject with a TypeError (code ERR_INVALID_ARG_TYPE or ERR_INVALID_ARG_VALUE);
 * an unavailable store rejects with an Error whose code starts with ERR_SECRETS_.
 */
export interface Secrets {
  /** The value stored for the pair, or null when there is none. */
  get(options: SecretsOptions): Promise<string | null>;
  get(service: string, name: string): Promise<string | null>;
  /** Stores the value (up to 1 MiB of UTF-8; 2560 bytes on Windows), replacing any previous one. */
  set(options: SecretsOptions, value: string): Promise<void>;
  set(options: SecretsOptions & { readonly value: string }): Promise<void>;
  set(service: string, name: string, value: string): Promise<void>;
  /** Removes the pair's value: true if there was one, false if not. */
  delete(options: SecretsOptions): Promise<boolean>;
  delete(service: string, name: string): Promise<boolean>;
}

/** What rt.serve runs: a fetch handler and where to listen. */
export interface ServeOptions {
  /** Answers each request; `this` and the second argument are the server. */
  fetch(this: Server, request: Request, server: Server): Response | Promise<Response>;
  /** Default: --port, then $PORT, then 3000; 0 picks a free port. */
  port?: number | string;
  /** The address to listen on; default: every interface. */
  hostname?: string;
  /**
   * The largest request body, in bytes; default 128 MiB, as Bun. A larger Content-Length is
   * answered with 413 before fetch runs; a larger chunked body makes reading it fail (413).
   */
  maxRequestBodySize?: number;
  /** Answers a request whose fetch handler threw or rejected; default: the error is logged and a 500 sent. */
  error?(this: Server, error: Error): Response | Promise<Response>;
}

/** A running rt.serve server. */
export interface Server {
  /** The port it listens on (the one picked, for port 0). */
  readonly port: number;
  /** The hostname given, or "localhost" when listening on every interface. */
  readonly hostname: string;
  /** e.g. http://localhost:3000/ */
  readonly url: URL;
  /** Stops accepting connections; open requests finish unless closeActiveConnections. Resolves once closed. */
  stop(closeActiveConnections?: boolean): Promise<void>;
}
/**
 * A PostgreSQL client (postgres.js) for $DATABASE_URL (or $POSTGRES_URL): a tagged template
 * whose values are always sent as bound parameters, e.g. `await sql\`select * from users where id = ${id}\``.
 */
export type Sql = import("postgres").Sql<{}>;

/** A Redis/Valkey client (node-redis) for $REDIS_URL (or $VALKEY_URL), connected on first use. */
export type Redis = import("@redis/client").RedisClientType;

export interface RtNamespace {
  /** rt's version, e.g. "0.1.0". */
  readonly version: string;
  /** Absolute path of the entry rt runs (`<cwd>/[eval]` or `<cwd>/[stdin]` for inline code). */
  readonly main: string;
  /** Credentials in the operating system's credential store. */
  readonly secrets: Secrets;
  /** PostgreSQL from $DATABASE_URL (or $POSTGRES_URL), connected on first use. */
  readonly sql: Sql;
  /** Redis/Valkey from $REDIS_URL (or $VALKEY_URL), connected on first use. */
  readonly redis: Redis;
  /**
   * Starts an HTTP server that answers each request with `fetch(request)` (web-standard Request
   * and Response; streaming bodies; `request.signal` aborts when the client goes away). Request
   * headers over --max-http-header-size (default 16384 bytes) are answered with 431.
   */
  serve(options: ServeOptions): Server;
  /**
   * Formats a value as util.inspect does; for an error, first the original source lines around
   * where it was thrown (line numbers in a gutter, a caret under the column).
   */
  inspect(value: unknown, options?: InspectOptions): string;
  /**
   * Runs the garbage collector, with or without --expose-gc: `force` collects the whole heap
   * before returning; without it a full collection is scheduled (as Bun.gc).
   */
  gc(force?: boolean): void;
}

export interface InspectOptions {
  /** ANSI colours and syntax highlighting (default false). */
  colors?: boolean;
  /** How deep util.inspect descends into objects. */
  depth?: number | null;
}

export declare const version: RtNamespace["version"];
export declare const main: RtNamespace["main"];
export declare const inspect: RtNamespace["inspect"];
export declare const secrets: RtNamespace["secrets"];
export declare const serve: RtNamespace["serve"];
export declare const sql: RtNamespace["sql"];
export declare const redis: RtNamespace["redis"];
export declare const gc: RtNamespace["gc"];

declare const rt: RtNamespace;
export default rt;

declare global {
  /** The rt namespace; the same object as `import rt from "rt"`. */
  // biome-ignore lint/suspicious/noRedeclare: the global of the same name as the module's default export
  var rt: RtNamespace;
}
