// The value of --inspect / --inspect-wait / --inspect-brk: `[[host:]port[/prefix]]`.
import type { BlockList } from "node:net";
import { UsageError } from "../errors.js";

export interface InspectorAddress {
  readonly host: string;
  /** 0: an available port is chosen. */
  readonly port: number;
  /** The WebSocket path; random and unguessable when not given. */
  readonly prefix?: string;
}

export const DEFAULT_INSPECTOR_HOST = "127.0.0.1";

export function parseInspectorAddress(flag: string, raw: string): InspectorAddress {
  const invalid = (why: string) =>
    new UsageError(`invalid value "${raw}" for ${flag}: ${why}; expected [[host:]port[/prefix]], e.g. ${flag}=9229 or ${flag}=127.0.0.1:9229/session`);
  if (raw === "") return { host: DEFAULT_INSPECTOR_HOST, port: 0 };
  const slash = raw.indexOf("/");
  const hostPort = slash === -1 ? raw : raw.slice(0, slash);
  const prefix = slash === -1 ? undefined : raw.slice(slash + 1);
  if (prefix !== undefined && !/^[\w.~-]+$/.test(prefix)) throw invalid("the prefix may hold letters, digits, '.', '_', '~' and '-' only");
  // IPv6 literals come in brackets: [::1]:9229
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d+)$/.exec(hostPort) ?? /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)$/.exec(hostPort);
  if (!match) throw invalid("not a host and port");
  const [host, portText] = match.length === 3 ? [match[1], match[2]] : /^\d+$/.test(match[1]!) ? [undefined, match[1]] : [match[1], undefined];
  const port = portText === undefined ? 0 : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw invalid(`port ${portText} is outside 0-65535`);
  return { host: host?.replace(/^\[|\]$/g, "") ?? DEFAULT_INSPECTOR_HOST, port, prefix: prefix || undefined };
}

// node:net loads on first use: this module is on every start's path, and loading net costs ~2 ms.
let loopback: BlockList | undefined;

function isLoopbackAddress(address: string, family: "ipv4" | "ipv6"): boolean {
  if (!loopback) {
    loopback = new (require("node:net") as typeof import("node:net")).BlockList();
    loopback.addSubnet("127.0.0.0", 8, "ipv4");
    loopback.addAddress("::1", "ipv6");
  }
  return loopback.check(address, family);
}

/**
 * Whether a host (a name, an IP address, in brackets or not) is this machine's loopback:
 * 127.0.0.0/8, ::1 (IPv4-mapped too), localhost and *.localhost (which resolve there). Short
 * IPv4 forms (127.1, 0x7f.1), which the resolver reads as addresses, are normalized as URLs are.
 */
export function isLoopback(host: string): boolean {
  const name = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  const { isIP } = require("node:net") as typeof import("node:net");
  const family = isIP(name);
  if (family !== 0) return isLoopbackAddress(name, family === 6 ? "ipv6" : "ipv4");
  const url = URL.canParse(`http://${name}/`) ? new URL(`http://${name}/`) : undefined;
  return url !== undefined && isIP(url.hostname) === 4 && isLoopbackAddress(url.hostname, "ipv4");
}

/** `host:port` as it appears in URLs (IPv6 in brackets). */
export function hostPort(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

const INSPECT_FLAG = /^--(inspect(?:-wait|-brk)?)(?:=(.*))?$/;

/**
 * Under --watch every restart is a new process: the debugger flag is pinned to one port and
 * session id, so the web debugger (and any client) reconnects to the same address.
 */
export async function pinInspectorAddress(rtArgs: readonly string[]): Promise<string[]> {
  const at = rtArgs.findIndex((arg) => INSPECT_FLAG.test(arg));
  if (at === -1) return [...rtArgs];
  const [, mode, value] = INSPECT_FLAG.exec(rtArgs[at]!)!;
  const address = parseInspectorAddress(`--${mode}`, value ?? "");
  const port = address.port || (await freePort(address.host));
  const prefix = address.prefix ?? (require("node:crypto") as typeof import("node:crypto")).randomUUID();
  const pinned = [...rtArgs];
  pinned[at] = `--${mode}=${hostPort(address.host, port)}/${prefix}`;
  return pinned;
}

function freePort(host: string): Promise<number> {
  const net = require("node:net") as typeof import("node:net");
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as import("node:net").AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
