// RT_CONFIG_VERBOSE_FETCH: every HTTP exchange of fetch() (undici) and of the http/https client
// modules, logged to stderr from Node's diagnostics channels, so no request or body is touched.
//   curl  → `[fetch] $ curl …` (a command sh can run, every part quoted; the body of http.request is not
//           observable, so only fetch() bodies are included), then what `true` prints
//   true  → `[fetch] > HTTP/1.1 METHOD url`, `[fetch] > Header: value`…, `[fetch]`,
//           `[fetch] < 200 OK`, `[fetch] < Header: value`…
// Each exchange is written with one write once its response headers (or its error) arrive, so
// the lines of concurrent requests never interleave. Credentials never reach the log: write()
// passes every URL, header and curl body through the redaction below (docs/networking.md).
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
  /** The one place exchanges become output: everything printed is redacted here. */
  const write = (exchange: Exchange, status: string, responseHeaders: readonly string[] = []) => {
    const url = redactUrl(exchange.url);
    const headers = exchange.headers.map(redactHeader);
    const head = curl ? [`$ ${curlCommand(exchange, url, headers)}`] : [];
    const request = [`> HTTP/1.1 ${exchange.method} ${url}`, ...headers.map((line) => `> ${line}`)];
    const response = [`< ${status}`, ...responseHeaders.map((line) => `< ${redactHeader(line)}`)];
    writeSync(2, [...head, ...request, "", ...response].map((line) => (line ? `[fetch] ${line}\n` : "[fetch]\n")).join(""));
    exchange.logged = true;
  };
  const writeError = (exchange: Exchange, error: Error) => {
    if (exchange.logged) writeSync(2, `[fetch] < error: ${error.message} (${exchange.method} ${redactUrl(exchange.url)})\n`);
    else write(exchange, `error: ${error.message}`);
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
    write(exchange, `${response.statusCode} ${response.statusText}`, rawHeaderLines(response.headers.map(String)));
  });
  channels.subscribe("undici:request:error", (message) => {
    const { request, error } = message as { request: object; error: Error };
    const exchange = exchanges.get(request);
    if (exchange) writeError(exchange, error);
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
    // A request through a proxy names its whole target URL (absolute form) as its path.
    const url = ABSOLUTE_URL.test(request.path) ? request.path : `${request.protocol ?? "http:"}//${host}${request.path}`;
    return { method: request.method, url, headers: sent, body: [], bodyBytes: 0, logged: false };
  };
  channels.subscribe("http.client.response.finish", (message) => {
    const { request, response } = message as { request: HttpRequest; response: HttpResponse };
    const exchange = httpExchange(request);
    exchanges.set(request, exchange);
    write(exchange, `${response.statusCode} ${response.statusMessage}`, rawHeaderLines(response.rawHeaders));
  });
  channels.subscribe("http.client.request.error", (message) => {
    const { request, error } = message as { request: HttpRequest; error: Error };
    writeError(exchanges.get(request) ?? httpExchange(request), error);
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

/** POSIX single quotes: sh and bash pass the text through unchanged, whatever it contains. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Every part quoted (the method too: it may hold any token character, `$` and backquotes among them). */
function curlCommand(exchange: Exchange, url: string, headers: readonly string[]): string {
  // --globoff: brackets in a URL (`?a[]=1`, the redaction marker) are sent as they are, not expanded.
  const parts = ["curl", "--http1.1", "--globoff", shellQuote(url)];
  if (exchange.method === "HEAD") parts.push("--head");
  else if (exchange.method !== "GET") parts.push("-X", shellQuote(exchange.method));
  const sent = textBody(exchange);
  const body = sent === undefined ? undefined : redactBody(sent, headerValue(exchange.headers, "content-type"));
  for (const line of headers) {
    // A redacted body has another length than the one sent: curl counts the body it is given.
    if (body !== sent && /^content-length:/i.test(line)) continue;
    parts.push("-H", shellQuote(line));
  }
  if (headerValue(exchange.headers, "accept-encoding") !== undefined) parts.push("--compressed");
  if (body !== undefined) parts.push("--data-raw", shellQuote(body));
  return parts.join(" ");
}

function headerValue(lines: readonly string[], name: string): string | undefined {
  const line = lines.find((line) => line.slice(0, name.length + 1).toLowerCase() === `${name}:`);
  return line?.slice(name.length + 1).trim();
}

// Redaction. What stands in for a credential; a user running a curl line puts theirs back there.
const REDACTED = "[REDACTED]";
/**
 * A name (of a header, query parameter, form or JSON field) that says it carries a credential:
 * one of its words (split at anything but letters and digits, lowercased) contains token,
 * secret, passw, pwd, credential, session, signature, cookie or authoriz, is auth or sig, or
 * ends in key. So Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key,
 * X-Auth-Token, Private-Token, access_token, client_secret, apiKey, key, sig, X-Amz-Signature.
 */
const CREDENTIAL_WORD = /token|secret|passw|pwd|credential|session|signature|cookie|authoriz|^auth$|^sig$|key$/;
const SCHEME = String.raw`[a-z][a-z\d+.-]*:\/\/`;
const ABSOLUTE_URL = new RegExp(`^${SCHEME}`, "i");
const USERINFO = new RegExp(`^(${SCHEME})[^/?#]*@`, "i");
/** Headers whose value is a URL: its userinfo and credential query parameters are redacted. */
const URL_HEADERS = new Set(["location", "content-location", "referer"]);

function isCredentialName(name: string): boolean {
  return name
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .some((word) => CREDENTIAL_WORD.test(word));
}

/** A `name: value` line with a credential's value replaced (the names always stay). */
function redactHeader(line: string): string {
  const colon = line.indexOf(":");
  if (colon <= 0) return line;
  const name = line.slice(0, colon);
  const value = line.slice(colon + 1).trim();
  const lower = name.toLowerCase();
  if (value === "") return line;
  if (URL_HEADERS.has(lower)) return `${name}: ${redactUrl(value)}`;
  if (!isCredentialName(name)) return line;
  if (lower === "cookie") return `${name}: ${value.split(/;\s*/).map(redactCookie).join("; ")}`;
  // The cookie's attributes (Path, Expires, HttpOnly...) are no secret.
  if (lower === "set-cookie") {
    const attributes = value.indexOf(";");
    return `${name}: ${attributes < 0 ? redactCookie(value) : `${redactCookie(value.slice(0, attributes))}${value.slice(attributes)}`}`;
  }
  // `Scheme credentials`: the scheme (Bearer, Basic...) says what kind of credential was sent.
  const scheme = lower.endsWith("authorization") ? /^[A-Za-z][\w.+-]*(?= +\S)/.exec(value)?.[0] : undefined;
  return `${name}: ${scheme ? `${scheme} ` : ""}${REDACTED}`;
}

/** `name=value` → `name=[REDACTED]`: cookie names tell which cookies were sent. */
function redactCookie(pair: string): string {
  const equals = pair.indexOf("=");
  return equals < 0 ? REDACTED : `${pair.slice(0, equals + 1)}${REDACTED}`;
}

/** Userinfo (`user:password@`) and credential query parameters. */
function redactUrl(url: string): string {
  const redacted = url.replace(USERINFO, `$1${REDACTED}@`);
  const query = redacted.indexOf("?");
  if (query < 0) return redacted;
  const fragment = redacted.indexOf("#", query);
  const end = fragment < 0 ? redacted.length : fragment;
  return `${redacted.slice(0, query + 1)}${redactForm(redacted.slice(query + 1, end))}${redacted.slice(end)}`;
}

/** `a=1&token=x` (a query or a form body) → `a=1&token=[REDACTED]`. */
function redactForm(text: string): string {
  return text
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      return equals > 0 && isCredentialName(decodeFormName(pair.slice(0, equals))) ? `${pair.slice(0, equals + 1)}${REDACTED}` : pair;
    })
    .join("&");
}

function decodeFormName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll("+", " "));
  } catch {
    return name;
  }
}

// A JSON string, then optionally `: value` (a string or number). Matching every string in turn
// keeps the scan in step with the text: a key is always the first string of a match.
const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const JSON_MEMBER = new RegExp(`(${JSON_STRING})(?:(\\s*:\\s*)(${JSON_STRING}|-?\\d[\\d.eE+-]*))?`, "g");

/** Form bodies and JSON bodies: the values of credential fields. Other bodies are sent as they are. */
function redactBody(body: string, contentType: string | undefined): string {
  if (contentType === undefined) return body;
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType)) return redactForm(body);
  if (!/^[\w.-]+\/(?:[\w.-]+\+)?json\b/i.test(contentType)) return body;
  return body.replace(JSON_MEMBER, (member, key: string, colon: string | undefined, value: string | undefined) =>
    value !== undefined && isCredentialName(key.slice(1, -1)) ? `${key}${colon}"${REDACTED}"` : member,
  );
}
