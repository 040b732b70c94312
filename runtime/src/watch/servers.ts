// Under --hot a re-executed module that starts its server again would find its port taken by
// the server of the version before. Instead, a server that listens where a server of an earlier
// version listens takes over that server's listening socket: the port never closes, new
// connections reach the new version, open connections finish on the old one (idle keep-alive
// connections are closed so clients reconnect to the new one).
import type * as net from "node:net";

interface ServerInternals {
  _handle: object | null;
}

interface Listening {
  readonly server: net.Server;
  readonly generation: number;
}

export function keepServerPorts(currentGeneration: () => number): void {
  // Loaded here: node:net is not part of a plain start.
  const net = require("node:net") as typeof import("node:net");
  const listen = net.Server.prototype.listen;
  const servers = new Map<string, Listening>();
  net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
    const key = addressKey(args);
    if (key === undefined) return listen.apply(this, args as Parameters<typeof listen>);
    const previous = servers.get(key);
    servers.set(key, { server: this, generation: currentGeneration() });
    if (!previous || previous.server === this || !previous.server.listening || previous.generation >= currentGeneration()) {
      return listen.apply(this, args as Parameters<typeof listen>);
    }
    const old = previous.server as net.Server & ServerInternals;
    const handle = old._handle!;
    old._handle = null;
    (old as net.Server & { closeIdleConnections?: () => void }).closeIdleConnections?.();
    const callback = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
    return listen.call(this, handle, callback);
  } as typeof listen;
}

/** host:port or the socket path a listen() call names; undefined for a random port (0 or none). */
function addressKey(args: readonly unknown[]): string | undefined {
  const [first, second] = args;
  if (typeof first === "object" && first !== null) {
    const options = first as net.ListenOptions;
    if (options.path) return `path:${options.path}`;
    return options.port ? `${options.host ?? ""}:${Number(options.port)}` : undefined;
  }
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    return Number(first) ? `${typeof second === "string" ? second : ""}:${Number(first)}` : undefined;
  }
  return typeof first === "string" ? `path:${first}` : undefined;
}
