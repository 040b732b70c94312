// DAP's framing over a byte stream (stdio): `Content-Length: N\r\n\r\n` and N bytes of JSON. The
// protocol library's own reader ends the session without a word on a message that is not JSON,
// and goes deaf for good after a header without a usable Content-Length. This reader sits in
// front of it and passes on only well-formed messages; anything else is reported (one line) and
// skipped up to the next header, so one bad message costs that message only.
// Covered by: debug-adapter/test/protocol.test.mjs.
import { Transform, type TransformCallback } from "node:stream";

const HEADER_END = Buffer.from("\r\n\r\n");
const HEADER_START = /Content-Length:/i;
/** A header block longer than this without its blank line is not a header. */
const MAX_HEADER_BYTES = 4096;
/** More than any request carries (a launch's env is the largest): a bigger length is a broken header. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export class DapFraming extends Transform {
  private buffer = Buffer.alloc(0);
  /** The body length once a header was read; undefined while reading a header. */
  private length: number | undefined;
  /** After a bad message: bytes are dropped up to the next header. */
  private skipping = false;

  /** `report` gets one line per message skipped. */
  constructor(private readonly report: (problem: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.step());
    done();
  }

  /** Takes one step; false when more bytes are needed. */
  private step(): boolean {
    if (this.skipping) {
      const at = this.buffer.toString("latin1").search(HEADER_START);
      // (The last few bytes may be the start of a header.)
      this.buffer = this.buffer.subarray(at === -1 ? Math.max(0, this.buffer.length - HEADER_NAME_BYTES) : at);
      this.skipping = at === -1;
      return !this.skipping;
    }
    if (this.length === undefined) return this.readHeader();
    if (this.buffer.length >= this.length) {
      this.readBody(this.length);
      return true;
    }
    return this.nextMessageInside();
  }

  private readHeader(): boolean {
    const end = this.buffer.indexOf(HEADER_END);
    if (end === -1) {
      if (this.buffer.length > MAX_HEADER_BYTES)
        this.skip(`${this.buffer.length} bytes without a message header (Content-Length: N, a blank line, N bytes of JSON)`, 1);
      return this.skipping;
    }
    const header = this.buffer.toString("latin1", 0, end);
    const value = /(?:^|\r\n)Content-Length:[ \t]*([^\r\n]*)/i.exec(header)?.[1]?.trim();
    if (value === undefined) {
      this.skip(`a message header without Content-Length: ${JSON.stringify(header.slice(0, 80))}`, 1);
    } else if (!/^\d+$/.test(value) || Number(value) > MAX_MESSAGE_BYTES) {
      this.skip(`a message with an unusable Content-Length ${JSON.stringify(value)}: it must be the body's length in bytes`, end + HEADER_END.length);
    } else {
      this.buffer = this.buffer.subarray(end + HEADER_END.length);
      this.length = Number(value);
    }
    return true;
  }

  private readBody(length: number): void {
    const body = this.buffer.subarray(0, length);
    this.length = undefined;
    const problem = messageProblem(body);
    if (problem) return this.skip(`a message (Content-Length ${length}): ${problem}`, 1);
    this.buffer = this.buffer.subarray(length);
    this.push(Buffer.concat([Buffer.from(`Content-Length: ${length}\r\n\r\n`), body]));
  }

  /**
   * While a body is incomplete: a well-formed message followed by the next header means the
   * length was too large (a JSON object has no shorter prefix that is JSON, so a message that is
   * still arriving is never cut short here).
   */
  private nextMessageInside(): boolean {
    const text = this.buffer.toString("latin1");
    for (let at = text.search(HEADER_START); at > 0; at = nextHeader(text, at)) {
      if (!messageProblem(this.buffer.subarray(0, at))) {
        this.skip(`a message whose Content-Length (${this.length}) is larger than the message (${at} bytes)`, at);
        this.length = undefined;
        return true;
      }
    }
    return false;
  }

  /** Reports a bad message and drops `bytes`, then everything up to the next header. */
  private skip(problem: string, bytes: number): void {
    this.report(`skipped ${problem}`);
    this.buffer = this.buffer.subarray(bytes);
    this.length = undefined;
    this.skipping = true;
  }
}

const HEADER_NAME_BYTES = "Content-Length:".length;

function nextHeader(text: string, after: number): number {
  const at = text.slice(after + 1).search(HEADER_START);
  return at === -1 ? -1 : after + 1 + at;
}

/** Why a body is not a DAP message, or undefined. */
function messageProblem(body: Buffer): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body.toString("utf8"));
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) return "not a JSON object";
  const { type, seq, command } = message as { type?: unknown; seq?: unknown; command?: unknown };
  if (type !== "request" && type !== "response" && type !== "event") return `"type" is ${JSON.stringify(type)}, not "request", "response" or "event"`;
  if (typeof seq !== "number") return '"seq" is not a number';
  if (type === "request" && typeof command !== "string") return 'a request without "command"';
  return undefined;
}
