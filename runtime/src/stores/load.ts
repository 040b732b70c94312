// rt.sql and rt.redis are files of their own (dist/sql.cjs, dist/redis.cjs), loaded with their
// client library when a program first uses them (or a preconnect flag asks for them at startup),
// so rt's startup bundle carries neither.
import * as path from "node:path";
import type { FlagValues } from "../flags/parse.js";

type SqlModule = typeof import("./sql.js");
type RedisModule = typeof import("./redis.js");

const loadSql = () => require(path.join(__dirname, "sql.cjs")) as SqlModule;
const loadRedis = () => require(path.join(__dirname, "redis.cjs")) as RedisModule;

export const lazySql = () =>
  lazyObject(
    () => loadSql().createSql(),
    function sql() {},
  );
export const lazyRedis = () => lazyObject(() => loadRedis().createRedis(), Object.create(null) as object);

/** --sql-preconnect / --kvstore-preconnect: connect while the program loads. */
export function preconnectStores(values: FlagValues): void {
  if (values["sql-preconnect"] === true) loadSql().preconnect();
  if (values["kvstore-preconnect"] === true) loadRedis().preconnect();
}

/**
 * An object that stands for `load()`'s result and loads it at its first use. Reading the
 * member loads nothing, because `import { version } from "rt"` reads every member.
 */
function lazyObject<T extends object>(load: () => T, target: object): T {
  let loaded: T | undefined;
  const real = () => (loaded ??= load());
  return new Proxy(target, {
    apply: (_target, thisArg, args) => Reflect.apply(real() as (...args: unknown[]) => unknown, thisArg, args),
    get: (_target, property) => Reflect.get(real(), property),
    has: (_target, property) => Reflect.has(real(), property),
  }) as T;
}
