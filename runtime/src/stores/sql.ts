// rt.sql: a PostgreSQL client configured from $DATABASE_URL (or $POSTGRES_URL), built on
// postgres.js (porsager/postgres): tagged templates whose values are always sent as bound
// parameters, pooled connections, transactions, a well-kept pure-JavaScript driver.
// Built as dist/sql.cjs and loaded on first use (or by --sql-preconnect).
import * as net from "node:net";
import postgres from "postgres";
import { KeepAlive, Preconnect, storeError } from "./connection.js";

export type Sql = postgres.Sql<{}>;

/** Seconds to wait for a connection (postgres.js waits 30 by default); `?connect_timeout=` in the URL wins. */
const CONNECT_TIMEOUT = 10;

let client: Sql | undefined;
const preconnection = new Preconnect("sql-preconnect", "PostgreSQL");
const keepAlive = new KeepAlive();

/** The `rt.sql` function: calls and properties go to the client, created on first use. */
export function createSql(): Sql {
  const target = function sql() {} as unknown as Sql;
  return new Proxy(target, {
    apply: (_target, _this, args: unknown[]) => {
      const failure = preconnection.take();
      if (failure) return Promise.reject(failure);
      return tracked((connect() as unknown as (...args: unknown[]) => unknown)(...args));
    },
    get: (_target, property) => {
      const value: unknown = Reflect.get(connect(), property);
      if (typeof value !== "function") return value;
      // sql.unsafe(), sql.file(), sql.begin(): their queries keep the program alive too.
      return (...args: unknown[]) => tracked((value as (...args: unknown[]) => unknown).apply(client, args));
    },
  });
}

/** Opens the connection now; a failure is a warning here and the first query's error. */
export function preconnect(): void {
  preconnection.start(() => connect()`select 1`, databaseUrl);
}

function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || process.env.POSTGRES_URL || undefined;
}

function connect(): Sql {
  if (client) return client;
  const url = databaseUrl();
  if (!url) throw storeError("ERR_SQL_NO_URL", "rt.sql needs a database: set DATABASE_URL (or POSTGRES_URL), e.g. postgres://user:password@localhost:5432/db");
  if (!URL.canParse(url)) throw storeError("ERR_SQL_INVALID_URL", "DATABASE_URL is not a valid URL: expected postgres://user:password@host:port/database");
  // `socket` is a documented option that the type definitions lack. No max_lifetime: its
  // timer (30-60 min per connection) would keep a finished program alive.
  const connectTimeout = new URL(url).searchParams.has("connect_timeout") ? {} : { connect_timeout: CONNECT_TIMEOUT };
  const options = { ...connectTimeout, max_lifetime: 0, socket: openSocket };
  client = postgres(url, options as postgres.Options<{}>);
  return client;
}

/** A query is lazy (it runs when awaited): it holds the event loop from when it runs until it settles. */
function tracked(value: unknown): unknown {
  if (!(value instanceof Promise)) return value;
  const query = value as Promise<unknown> & { handle?: () => unknown; executed?: boolean };
  if (typeof query.handle !== "function") return keepAlive.track(query);
  const handle = query.handle;
  query.handle = function (this: typeof query) {
    if (!this.executed) keepAlive.track(query);
    return handle.call(this);
  };
  return query;
}

interface SocketOptions {
  host: string[];
  port: number[];
  path?: string | false;
  connect_timeout: number;
}

/** postgres.js's own connect, with an unreferenced socket (it calls this for each connection). */
function openSocket(options: SocketOptions): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const where = options.path || `${options.host[0]}:${options.port[0]}`;
    const socket = options.path ? net.connect(options.path) : net.connect(options.port[0]!, options.host[0]);
    socket.unref();
    // postgres.js names these in its connection errors.
    Object.assign(socket, { host: options.host[0], port: options.port[0] });
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(storeError("CONNECT_TIMEOUT", `connection to ${where} timed out after ${options.connect_timeout} s`)),
      options.connect_timeout * 1000,
    ).unref();
    socket.once("error", fail);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.removeListener("error", fail);
      resolve(socket);
    });
  });
}
