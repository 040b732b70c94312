// The bytes of the stdio transport, checked frame by frame before vscode-jsonrpc reads them. Its
// reader, given a header block without a usable Content-Length, reports an error and then reads
// the body as the next header block, so one bad frame leaves the server deaf for good (and a
// negative or huge length waits forever). Here each frame is passed on whole once its body is
// in; a bad header block is reported and skipped, and reading resumes at the next
// `Content-Length:` header.
import { Transform } from "node:stream";

/** Far above anything an editor sends (a 10,000-script package.json is under 1 MiB). */
const MAX_CONTENT_LENGTH = 64 * 1024 * 1024;
/** Header blocks are a few dozen bytes: this many without the blank line after them is not one. */
const MAX_HEADER_BYTES = 8 * 1024;
const HEADER_END = Buffer.from("\r\n\r\n");
const CONTENT_LENGTH = Buffer.from("Content-Length:");

/** What is wrong with a header block (the text before its blank line), or its body's length. */
function contentLength(headers: string): number | string {
  let length: string | undefined;
  for (const line of headers.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon === -1) return `a header line without a colon (${JSON.stringify(line.slice(0, 40))})`;
    if (line.slice(0, colon).trim().toLowerCase() === "content-length") length = line.slice(colon + 1).trim();
  }
  if (length === undefined) return "a message without a Content-Length header";
  if (!/^\d+$/.test(length)) return `Content-Length ${JSON.stringify(length.slice(0, 40))}, not a whole number of bytes`;
  if (Number(length) > MAX_CONTENT_LENGTH) return `Content-Length ${length}, over the ${MAX_CONTENT_LENGTH / 1024 / 1024} MiB limit`;
  return Number(length);
}

/**
 * A stream of well-formed frames from `input`; `onBadFrame` gets one line for each header block
 * skipped. The result ends when `input` does.
 */
export function framedInput(input: NodeJS.ReadableStream, onBadFrame: (problem: string) => void): Transform {
  let buffer: Buffer = Buffer.alloc(0);
  /** The header block's and the body's lengths once a valid header block is read. */
  let frame: { header: number; body: number } | undefined;
  let resyncing = false;
  const skip = (problem: string, bytes: number): void => {
    onBadFrame(`ignored ${problem}; reading on from the next Content-Length header`);
    buffer = buffer.subarray(bytes);
    resyncing = true;
  };
  const framed = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        if (resyncing) {
          const next = buffer.indexOf(CONTENT_LENGTH);
          // Keep what could be the start of a header split across two chunks.
          if (next === -1) {
            buffer = buffer.subarray(Math.max(0, buffer.length - CONTENT_LENGTH.length + 1));
            break;
          }
          buffer = buffer.subarray(next);
          resyncing = false;
        }
        if (!frame) {
          const end = buffer.indexOf(HEADER_END);
          if (end === -1 || end > MAX_HEADER_BYTES) {
            if (end === -1 && buffer.length <= MAX_HEADER_BYTES) break;
            skip(`${MAX_HEADER_BYTES} bytes without the blank line that ends a header block`, 1);
            continue;
          }
          const length = contentLength(buffer.subarray(0, end).toString("latin1"));
          if (typeof length === "string") {
            skip(length, end + HEADER_END.length);
            continue;
          }
          frame = { header: end + HEADER_END.length, body: length };
        }
        const size = frame.header + frame.body;
        if (buffer.length < size) break;
        this.push(buffer.subarray(0, size));
        buffer = buffer.subarray(size);
        frame = undefined;
      }
      done();
    },
  });
  input.pipe(framed);
  return framed;
}
