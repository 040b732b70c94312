// --user-agent: the User-Agent that fetch() and the http/https client modules send when the
// program sets none (fetch would send "node", http.request none at all).
import { subscribe } from "node:diagnostics_channel";

export function setDefaultUserAgent(userAgent: string): void {
  wrapFetch(userAgent);
  // A client request, before its header block is written. A program that passes its headers as
  // a raw array has already fixed the block, and keeps exactly what it wrote.
  subscribe("http.client.request.created", (message) => {
    const { request } = message as { request: import("node:http").ClientRequest };
    if (!request.headersSent && !request.hasHeader("user-agent")) request.setHeader("user-agent", userAgent);
  });
}

function wrapFetch(userAgent: string): void {
  const original = globalThis.fetch;
  const fetch = function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (headers.has("user-agent")) return original(input, init);
    headers.set("user-agent", userAgent);
    return original(input, { ...init, headers });
  };
  Object.defineProperty(globalThis, "fetch", { value: fetch, writable: true, configurable: true, enumerable: true });
}
