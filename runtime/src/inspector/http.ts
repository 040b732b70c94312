// The inspector's HTTP side: who may talk to it (the Host and Origin checks), target discovery
// (/json/...) as Node's inspector serves it, and the web debugger's files. Nothing a request
// carries may throw here: a bad request is answered, the program goes on.
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isIP } from "node:net";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { isLoopback } from "./address.js";

declare const RT_VERSION: string;

/** What the server knows of the program it debugs. */
export interface DebugTarget {
  /** The entry's path and file: URL. */
  readonly entry: string;
  readonly entryUrl: string;
  readonly uiDirectory: string;
  /** The WebSocket path (`/<session id>`), once the main thread has chosen it. */
  socketPath(): string | undefined;
}

export interface Refusal {
  readonly status: 400 | 403;
  readonly text: string;
}

/** `name[:port]` or `[ipv6][:port]`, each part in its own group; the name's syntax is checked apart. */
const HOST_HEADER = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/;
const HOST_NAME = /^[A-Za-z0-9.-]+$/;

/**
 * DNS-rebinding protection, as Node's inspector does: the Host must be an IP literal or
 * localhost, and parse (else 400, as Node answers). Browsers send an Origin: pages from loopback
 * HTTP origins (rt's own page, Chrome's DevTools frontend as Chromium serves it), devtools://,
 * and the page this server served itself (same origin: its host:port is the Host, which is an IP
 * address or localhost, so no rebinding name) may connect; any other page may not.
 */
export function refusal(request: IncomingMessage): Refusal | undefined {
  const host = request.headers.host;
  const match = host === undefined ? null : HOST_HEADER.exec(host);
  const name = match?.[1] ?? match?.[2];
  if (!match || !name || (match[2] !== undefined && !HOST_NAME.test(name)) || Number(match[3] ?? 0) > 65535 || (match[1] !== undefined && isIP(name) !== 6)) {
    return { status: 400, text: `Bad Request: the Host header ${JSON.stringify(host ?? "")} is not a host[:port]\n` };
  }
  if (!isIP(name) && !isLoopback(name)) return { status: 403, text: `Forbidden: Host ${JSON.stringify(host)} is not an IP address or localhost\n` };
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedOrigin(origin, host!))
    return { status: 403, text: `Forbidden: pages from ${JSON.stringify(origin)} may not use the debugger\n` };
  return undefined;
}

function allowedOrigin(origin: string, host: string): boolean {
  if (origin.startsWith("devtools://")) return true;
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return isLoopback(url.hostname) || (url.protocol === "http:" && url.host === new URL(`http://${host}/`).host);
}

/** The path of a request's target without its query, or undefined when it is not a path. */
export function requestPath(request: IncomingMessage): string | undefined {
  const target = request.url ?? "";
  if (!target.startsWith("/")) return undefined;
  return target.replace(/[?#].*$/s, "");
}

const ASSETS: Readonly<Record<string, string>> = {
  "/": "index.html",
  "/index.html": "index.html",
  "/app.js": "app.js",
  "/style.css": "style.css",
};
const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
};

export function serveHttp(target: DebugTarget, request: IncomingMessage, response: ServerResponse): void {
  const send = (status: number, type: string, body: string | Buffer) => {
    // No other page may frame the debugger (clickjacking its buttons); it talks to its own
    // origin only, whatever its URL's fragment names.
    response.writeHead(status, {
      "Content-Type": type,
      "Cache-Control": "no-store",
      "X-Frame-Options": "DENY",
      "Content-Security-Policy": "frame-ancestors 'none'; connect-src 'self'",
    });
    response.end(body);
  };
  const text = (status: number, body: string) => send(status, "text/plain; charset=utf-8", body);
  const refused = refusal(request);
  if (refused) return text(refused.status, refused.text);
  const pathname = requestPath(request);
  if (pathname === undefined) return text(400, "Bad Request: the request target is not a path\n");
  const socketPath = target.socketPath();
  if (!socketPath) return text(503, "Starting\n");
  const id = socketPath.slice(1);
  const host = request.headers.host!;
  const dist = path.dirname(target.uiDirectory);
  if (pathname === "/json/version") {
    return send(200, "application/json", JSON.stringify({ Browser: `rt/${RT_VERSION}`, "Protocol-Version": "1.3", "V8-Version": process.versions.v8 }));
  }
  if (pathname === "/json" || pathname === "/json/list") {
    const described = {
      description: "rt instance",
      devtoolsFrontendUrl: `devtools://devtools/bundled/js_app.html?experiments=true&v8only=true&ws=${host}${socketPath}`,
      id,
      title: path.basename(target.entry),
      type: "node",
      url: target.entryUrl,
      webSocketDebuggerUrl: `ws://${host}${socketPath}`,
    };
    return send(200, "application/json", JSON.stringify([described]));
  }
  if (pathname === "/json/protocol") return send(200, "application/json", readFileSync(path.join(dist, "inspector-protocol.json")));
  // Chrome's tab commands: rt debugs one program, which is always the active target; it opens
  // no new ones and is not closed from here (a client ends it through the protocol).
  const tabCommand = /^\/json\/(activate|close|new)(?:\/(.*))?$/.exec(pathname);
  if (tabCommand?.[1] === "activate") return tabCommand[2] === id ? text(200, "Target activated\n") : text(404, `No such target id: ${tabCommand[2] ?? ""}\n`);
  if (tabCommand) return text(405, `rt debugs one program: /json/${tabCommand[1]} does not apply (use /json/list)\n`);
  if (pathname === socketPath) return text(426, "Upgrade Required: this is the inspector's WebSocket\n");
  const asset = ASSETS[pathname];
  if (!asset) return text(404, "Not Found\n");
  const file = path.join(target.uiDirectory, asset);
  return send(200, TYPES[path.extname(file)]!, readFileSync(file));
}

/** The URL prefixes of rt's own files (its bundle and launcher): not the program's code. */
export function internalUrls(dist: string): string[] {
  return [dist, path.join(dist, "..", "bin")].map((dir) => `${pathToFileURL(dir).href}/`);
}
