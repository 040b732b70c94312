// RT_CONFIG_VERBOSE_FETCH: every HTTP exchange of fetch() (undici) and of the http/https client
// modules, logged to stderr from Node's diagnostics channels, so no request or body is touched.
//   curl  → `[fetch] $ curl …` (a command bash can run; the body of http.request is not
//           observable, so only fetch() bodies are included), then what `true` prints
//   true  → `[fetch] > HTTP/1.1 METHOD url`, `[fetch] > Header: value`…, `[fetch]`,
//           `[fetch] < 200 OK`, `[fetch] < Header: value`…
// Each exchange is written with one write once its response headers (or its error) arrive, so
// the lines of concurrent requests never interleave.
import { writeSync } from "node:fs";

export const VERBOSE_FETCH_ENV = "RT_CONFIG_VERBOSE_FETCH";
const MODES: Readonly<Record<string, "curl" | "true" | "off">> = { curl: "curl", true: "true", "1": "true", false: "off", "0": "off", "": "off" };

/** Reads RT_CONFIG_VERBOSE_FETCH; subscribes nothing (costs nothing) when logging is off. */
export function installVerboseFetch(env: NodeJS.ProcessEnv): void {
  const value = env[VERBOSE_FETCH_ENV];
  if (value === undefined) return;
  const mode = MODES[value.toLowerCase()];
  if (mode === undefined) {
    writeSync(2, `rt: warning: ${VERBOSE_FETCH_ENV}="${value}" is not one of curl, true, 1, false, 0; request logging is off\n`);
    return;
  }
  if (mode !== "off") subscribe(mode === "curl");
}

interface Exchange {
  method: string;
  url: string;
  /** Header lines exactly as sent (`name: value`), once known. */
  headers: string[];
  /** The request body as it was sent (copies of the chunks undici reports), up to a limit. */
  body: Buffer[];
  bodyBytes: number;
  logged: boolean;
}

/** Larger bodies are left out of the curl command. */
const CURL_BODY_LIMIT = 64 * 1024;

type UndiciRequest = { method: string; origin: string; path: string; headers?: unknown; contentLength?: number | null };
type HttpRequest = { method: string; path: string; protocol?: string; host?: string; _header?: string | null; getHeaders(): Record<string, unknown> };
type HttpResponse = { statusCode: number; statusMessage: string; httpVersion: string; rawHeaders: string[] };

function subscribe(curl: boolean): void {
  const channels = require("node:diagnostics_channel") as typeof import("node:diagnostics_channel");
  const exchanges = new WeakMap<object, Exchange>();
  const write = (exchange: Exchange, lines: string[]) => {
    const head = curl ? [`$ ${curlCommand(exchange)}`] : [];
    const request = [`> HTTP/1.1 ${exchange.method} ${exchange.url}`, ...exchange.headers.map((line) => `> ${line}`)];
    writeSync(2, [...head, ...request, "", ...lines].map((line) => (line ? `[fetch] ${line}\n` : "[fetch]\n")).join(""));
    exchange.logged = true;
  };

  // fetch(): undici publishes each request (each redirect hop too), its exact header block,
  // its response head and its error.
  channels.subscribe("undici:request:create", (message) => {
    const request = (message as { request: UndiciRequest }).request;
    exchanges.set(request, {
      method: request.method,
      url: `${request.origin}${request.path}`,
      headers: headerPairs(request.headers),
      body: [],
      bodyBytes: 0,
      logged: false,
    });
  });
  channels.subscribe("undici:client:sendHeaders", (message) => {
    const { request, headers } = message as { request: UndiciRequest; headers: string };
    const exchange = exchanges.get(request);
    if (!exchange) return;
    exchange.headers = headers.split("\r\n").slice(1).filter(Boolean);
    // undici writes the length line after this block.
    if (typeof request.contentLength === "number") exchange.headers.push(`content-length: ${request.contentLength}`);
  });
  channels.subscribe("undici:request:bodyChunkSent", (message) => {
    const { request, chunk } = message as { request: object; chunk: Uint8Array | string };
    const exchange = exchanges.get(request);
    if (!exchange) return;
    exchange.bodyBytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (exchange.bodyBytes <= CURL_BODY_LIMIT) exchange.body.push(Buffer.from(chunk)); // a copy: the program's bytes stay untouched
  });
  channels.subscribe("undici:request:headers", (message) => {
    const { request, response } = message as { request: object; response: { statusCode: number; statusText: string; headers: Buffer[] } };
    const exchange = exchanges.get(request);
    if (!exchange) return;
    write(exchange, [`< ${response.statusCode} ${response.statusText}`, ...rawHeaderLines(response.headers.map(String)).map((line) => `< ${line}`)]);
  });
  channels.subscribe("undici:request:error", (message) => {
    const { request, error } = message as { request: object; error: Error };
    const exchange = exchanges.get(request);
    if (!exchange) return;
    if (exchange.logged) writeSync(2, `[fetch] < error: ${error.message} (${exchange.method} ${exchange.url})\n`);
    else write(exchange, [`< error: ${error.message}`]);
  });

  // http.request / https.request: the exact header block is on the request once it is sent.
  const httpExchange = (request: HttpRequest): Exchange => {
    const sent = request._header ? request._header.split("\r\n").slice(1).filter(Boolean) : headerPairs(Object.entries(request.getHeaders()).flat());
    const host =
      sent
        .find((line) => /^host:/i.test(line))
        ?.slice(5)
        .trim() ??
      request.host ??
      "localhost";
    return { method: request.method, url: `${request.protocol ?? "http:"}//${host}${request.path}`, headers: sent, body: [], bodyBytes: 0, logged: false };
  };
  channels.subscribe("http.client.response.finish", (message) => {
    const { request, response } = message as { request: HttpRequest; response: HttpResponse };
    const exchange = httpExchange(request);
    exchanges.set(request, exchange);
    write(exchange, [`< ${response.statusCode} ${response.statusMessage}`, ...rawHeaderLines(response.rawHeaders).map((line) => `< ${line}`)]);
  });
  channels.subscribe("http.client.request.error", (message) => {
    const { request, error } = message as { request: HttpRequest; error: Error };
    const exchange = exchanges.get(request) ?? httpExchange(request);
    if (exchange.logged) writeSync(2, `[fetch] < error: ${error.message} (${exchange.method} ${exchange.url})\n`);
    else write(exchange, [`< error: ${error.message}`]);
  });
}

/** `name: value` lines from undici's or Node's header lists ([name, value, …] or a string block). */
function headerPairs(headers: unknown): string[] {
  if (typeof headers === "string") return headers.split("\r\n").filter(Boolean);
  if (!Array.isArray(headers)) return [];
  const lines: string[] = [];
  for (let i = 0; i + 1 < headers.length; i += 2) lines.push(`${String(headers[i])}: ${String(headers[i + 1])}`);
  return lines;
}

function rawHeaderLines(raw: readonly string[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) lines.push(`${raw[i]}: ${raw[i + 1]}`);
  return lines;
}

/** The body sent, when it is text and not too large for a command line. */
function textBody(exchange: Exchange): string | undefined {
  if (exchange.bodyBytes === 0 || exchange.bodyBytes > CURL_BODY_LIMIT) return undefined;
  const text = Buffer.concat(exchange.body).toString("utf8");
  // Invalid UTF-8 or control characters other than whitespace: binary, left out of --data-raw.
  return /[\uFFFD\x00-\x08\x0E-\x1F]/.test(text) ? undefined : text;
}

/** Quoted so bash passes the text through unchanged, whatever it contains. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function curlCommand(exchange: Exchange): string {
  const parts = ["curl", "--http1.1", shellQuote(exchange.url)];
  if (exchange.method === "HEAD") parts.push("--head");
  else if (exchange.method !== "GET") parts.push("-X", exchange.method);
  for (const line of exchange.headers) parts.push("-H", shellQuote(line));
  if (exchange.headers.some((line) => /^accept-encoding:/i.test(line))) parts.push("--compressed");
  const body = textBody(exchange);
  if (body !== undefined) parts.push("--data-raw", shellQuote(body));
  return parts.join(" ");
}
