// rt.redis: a Redis/Valkey client configured from $REDIS_URL (or $VALKEY_URL), built on
// @redis/client, the core of node-redis (the client Redis maintains; ioredis is now in
// best-effort maintenance), without the module packages (JSON, search...) of the `redis`
// meta-package. Built as dist/redis.cjs and loaded on first use (or by --kvstore-preconnect).
import { createClient } from "@redis/client";
import { KeepAlive, Preconnect, storeError } from "./connection.js";

export type Redis = ReturnType<typeof createClient>;

/** Seconds to wait for a connection (`?connect_timeout=` in the URL wins), and how many times a failed one is retried. */
const CONNECT_TIMEOUT = 10;
const CONNECT_RETRIES = 2;

let client: Redis | undefined;
let connecting: Promise<unknown> | undefined;
const preconnection = new Preconnect("kvstore-preconnect", "Redis");
const keepAlive = new KeepAlive();

/**
 * The `rt.redis` object: every property is the client's, connected on first use (commands
 * issued while it connects are queued by the client). A client that gave up, or that the
 * program closed, is replaced by a new one at the next use.
 */
export function createRedis(): Redis {
  return new Proxy(Object.create(null) as Redis, {
    get: (_target, property) => {
      const redis = connect();
      const value: unknown = Reflect.get(redis, property);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const failure = preconnection.take();
        if (failure) return Promise.reject(failure);
        return trackedResult((value as (...args: unknown[]) => unknown).apply(redis, args));
      };
    },
    has: (_target, property) => property in connect(),
  });
}

/** A command's promise holds the event loop; so does a transaction's or pipeline's `exec()`. */
function trackedResult(result: unknown): unknown {
  if (result instanceof Promise) return keepAlive.track(result);
  if (!isBatch(result)) return result;
  const batch: object = new Proxy(result, {
    get: (target, property) => {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const returned: unknown = (value as (...args: unknown[]) => unknown).apply(target, args);
        return returned === target ? batch : trackedResult(returned);
      };
    },
  });
  return batch;
}

function isBatch(value: unknown): value is object {
  return typeof value === "object" && value !== null && typeof (value as { exec?: unknown }).exec === "function";
}

/**
 * Opens the connection now; a failure is a warning here and the first command's error.
 * Connected means answering: a server that accepts and never replies fails after the timeout.
 */
export function preconnect(): void {
  preconnection.start(() => answering(connect()), redisUrl);
}

function answering(redis: Redis): Promise<unknown> {
  const seconds = connectTimeout(redisUrl()!);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(storeError("CONNECT_TIMEOUT", `no answer from the server within ${seconds} s`)), seconds * 1000).unref();
  });
  return Promise.race([connecting!.then(() => redis.ping()), late])
    .finally(() => clearTimeout(timer))
    .catch((error: unknown) => {
      // Commands waiting on this client fail now; the next use connects anew.
      if (client === redis) client = undefined;
      redis.destroy();
      throw error;
    });
}

function connectTimeout(url: string): number {
  const seconds = Number(new URL(url).searchParams.get("connect_timeout"));
  return seconds > 0 ? seconds : CONNECT_TIMEOUT;
}

function redisUrl(): string | undefined {
  return process.env.REDIS_URL || process.env.VALKEY_URL || undefined;
}

function connect(): Redis {
  if (client?.isOpen) return client;
  const url = redisUrl();
  if (!url) throw storeError("ERR_REDIS_NO_URL", "rt.redis needs a server: set REDIS_URL (or VALKEY_URL), e.g. redis://localhost:6379");
  if (!URL.canParse(url)) throw storeError("ERR_REDIS_INVALID_URL", "REDIS_URL is not a valid URL: expected redis://[user:password@]host:port[/db]");
  const created = createClient({
    url,
    socket: { connectTimeout: connectTimeout(url) * 1000, reconnectStrategy: (retries, cause) => (retries < CONNECT_RETRIES ? 100 * (retries + 1) : cause) },
  });
  // Failures reach the program through its commands; without a listener the client's
  // 'error' events would end the process.
  created.on("error", () => {});
  created.unref();
  connecting = created.connect();
  connecting.catch(() => {});
  client = created as Redis;
  return client;
}
