// Request bodies read into memory once. The adapter's readers collect the chunks, join them (a
// second copy) and then slice an ArrayBuffer out (a third) or decode: a 256 MB upload peaked at
// 3.3 times its size, above node:http's usual chunks-then-Buffer.concat. Here a body with a
// Content-Length is copied into one buffer of that size as it arrives, and arrayBuffer() hands
// that buffer's memory over; a chunked one is joined once.
import type { IncomingMessage } from "node:http";

const INCOMING = Symbol("incoming");
/** true once rt's readers took the body. */
const TAKEN = Symbol("bodyTaken");

interface WithBody {
  [INCOMING]: IncomingMessage;
  [TAKEN]?: true;
  readonly headers: Headers;
}

/** rt's readers over each adapter request prototype (there is one). */
const prototypes = new WeakMap<object, object>();
const decoder = new TextDecoder();

/** Gives a request that carries a body rt's readers for it (arrayBuffer, bytes, text, json, blob). */
export function readBodyOnce(request: Request, incoming: IncomingMessage): void {
  const adapter = Object.getPrototypeOf(request) as object;
  let prototype = prototypes.get(adapter);
  if (!prototype) prototypes.set(adapter, (prototype = Object.create(adapter, readers(adapter)) as object));
  Object.setPrototypeOf(request, prototype);
  (request as unknown as WithBody)[INCOMING] = incoming;
}

/** Whether a request comes with a body to read (GET and HEAD keep the adapter's readers). */
export function hasBody(incoming: IncomingMessage): boolean {
  if (incoming.method === "GET" || incoming.method === "HEAD") return false;
  const length = incoming.headers["content-length"];
  return length === undefined ? incoming.headers["transfer-encoding"] !== undefined : length !== "0";
}

function readers(adapter: object): PropertyDescriptorMap {
  const reader = (name: string, convert: (body: Buffer, request: WithBody) => unknown): PropertyDescriptor => ({
    configurable: true,
    writable: true,
    value(this: WithBody): Promise<unknown> {
      const incoming = this[INCOMING];
      // The adapter has begun with this body (request.body, clone()): its readers go on with it.
      if (!this[TAKEN] && (incoming.readableFlowing !== null || incoming.readableDidRead)) {
        return (Reflect.get(adapter, name, this) as () => Promise<unknown>).call(this);
      }
      if (this[TAKEN]) return Promise.reject(new TypeError("Body is unusable: Body has already been read"));
      this[TAKEN] = true;
      return readAll(incoming).then((body) => convert(body, this));
    },
  });
  return {
    arrayBuffer: reader("arrayBuffer", wholeArrayBuffer),
    bytes: reader("bytes", (body) => new Uint8Array(wholeArrayBuffer(body))),
    text: reader("text", (body) => decoder.decode(body)),
    json: reader("json", (body) => JSON.parse(decoder.decode(body))),
    blob: reader("blob", (body, request) => new Blob([body], { type: request.headers.get("content-type") ?? "" })),
    bodyUsed: {
      configurable: true,
      get(this: WithBody): boolean {
        return this[TAKEN] === true || (Reflect.get(adapter, "bodyUsed", this) as boolean);
      },
    },
  };
}

/** The whole body: into one buffer of its Content-Length (checked against the limit already). */
async function readAll(incoming: IncomingMessage): Promise<Buffer> {
  const declared = incoming.headers["content-length"];
  if (declared === undefined) {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  // Not from the pool: its ArrayBuffer is the body's alone, handed over by arrayBuffer().
  const body = Buffer.allocUnsafeSlow(Number(declared));
  let length = 0;
  for await (const chunk of incoming) length += (chunk as Buffer).copy(body, length);
  return length === body.length ? body : body.subarray(0, length);
}

/** The body's bytes as an ArrayBuffer of their own, copied only when they share one. */
function wholeArrayBuffer(body: Buffer): ArrayBuffer {
  const buffer = body.buffer as ArrayBuffer;
  return body.byteOffset === 0 && body.byteLength === buffer.byteLength ? buffer : buffer.slice(body.byteOffset, body.byteOffset + body.byteLength);
}
