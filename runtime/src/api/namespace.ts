// The `rt` namespace: `globalThis.rt` and the "rt" module are the same object. Each member is
// a getter, so a feature's code loads only when a program first touches it.
import { inspect, type InspectOptions } from "../diagnostics/preview.js";
import { gc } from "./gc.js";
import { lazySecrets } from "../secrets/load.js";
import { lazyServe } from "../serve/load.js";
import type { ServeDefaults } from "../serve/index.js";
import { lazyRedis, lazySql } from "../stores/load.js";
import type { Redis, Secrets, ServeOptions, Server, Sql } from "rt-runtime/types/rt";
import type { ApiMember } from "./members.js";

declare const RT_VERSION: string;

export interface RtNamespace {
  readonly version: string;
  readonly main: string;
  readonly inspect: (value: unknown, options?: InspectOptions) => string;
  readonly secrets: Secrets;
  readonly serve: (options: ServeOptions) => Server;
  readonly sql: Sql;
  readonly redis: Redis;
  readonly gc: (force?: boolean) => void;
}

export function installNamespace(main: string, serveDefaults: ServeDefaults): RtNamespace {
  let secrets: RtNamespace["secrets"] | undefined;
  let serve: RtNamespace["serve"] | undefined;
  let sql: Sql | undefined;
  let redis: Redis | undefined;
  const members: { [K in ApiMember]: () => RtNamespace[K] } = {
    version: () => RT_VERSION,
    main: () => main,
    inspect: () => inspect,
    secrets: () => (secrets ??= lazySecrets()),
    serve: () => (serve ??= lazyServe(serveDefaults)),
    sql: () => (sql ??= lazySql() as unknown as Sql),
    redis: () => (redis ??= lazyRedis() as unknown as Redis),
    gc: () => gc,
  };
  const rt = Object.create(null) as RtNamespace;
  for (const [name, get] of Object.entries(members)) {
    Object.defineProperty(rt, name, { get, enumerable: true });
  }
  Object.defineProperty(rt, Symbol.toStringTag, { value: "rt" });
  Object.defineProperty(globalThis, "rt", { value: Object.freeze(rt), enumerable: false, writable: false, configurable: false });
  return rt;
}
