// A fast 64-bit content hash for rt's cache keys and entry checksums. node:crypto would be the
// obvious choice, but loading it costs 3-6 ms per process (it pulls in streams), and a hash in
// JavaScript runs cold at every start, before V8 optimizes its loop (a 220 KB code cache took
// 4-15 ms). This is a WebAssembly function of ~250 bytes, compiled on first use: a one-lane
// XXH64-style loop of 8 bytes per step (220 KB: ~0.1 ms, and a copy into its memory).
// It only has to separate a user's own files, not resist an attacker who can already write them.
// Without WebAssembly (node --jitless) the same function runs in BigInt arithmetic: slower, same values.

// The part of the WebAssembly global this module uses (TypeScript's only full typing is in the DOM lib).
declare const WebAssembly:
  | {
      Module: new (bytes: Uint8Array) => object;
      Instance: new (module: object) => { exports: Exports };
    }
  | undefined;

interface Exports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  /** The hash of `length` bytes of memory at `offset`, as a signed 64-bit value. */
  hash(offset: number, length: number, seed: bigint): bigint;
}

/**
 * The WebAssembly module: one function, `hash`, and its memory. hash.test.ts assembles it from its
 * listing (and holds it equal to hashInJs): change the listing there and paste what it prints.
 */
export const HASH_MODULE =
  "AGFzbQEAAAABCAFgA39/fgF+AwIBAAUDAQABBxECBGhhc2gAAAZtZW1vcnkCAAqHAgGEAgMBfgF/AX4gAkLFz9my8eW66id8IAGtfCEDIAAgAUF4cWohBAJAA0AgACAETw0BIAMgACkDAELP1tO+0ser2UJ+IgVCH4YgBUIhiIRCh5Wvr5i23puef36FIgVCG4YgBUIliIRCh5Wvr5i23puef35C49zKlfzO8vWFf3whAyAAQQhqIQAMAAsLIAAgAUEHcWohBAJAA0AgACAETw0BIAMgADEAAELFz9my8eW66id+hSIFQguGIAVCNYiEQoeVr6+Ytt6bnn9+IQMgAEEBaiEADAALCyADIANCIYiFQs/W077Sx6vZQn4iAyADQh2IhUL5893xmfaZqxZ+IgMgA0IgiIUL";

// XXH64's primes (exported for hash.test.ts's listing).
export const P1 = 0x9e3779b185ebca87n;
export const P2 = 0xc2b2ae3d27d4eb4fn;
export const P3 = 0x165667b19e3779f9n;
export const P4 = 0x85ebca77c2b2ae63n;
export const P5 = 0x27d4eb2f165667c5n;
const PAGE = 65536;
/** Past this, the memory grown for one input is let go after it (WebAssembly memory never shrinks). */
const KEEP_BYTES = 16 * 1024 * 1024;

/** Hash of `seed` (e.g. the options) and then `content`, as 16 hex digits. */
export function hashBytes(content: Uint8Array, seed: string): string {
  return hash64(content, hash64(Buffer.from(seed), 0n))
    .toString(16)
    .padStart(16, "0");
}

let instance: Exports | undefined;

function hash64(bytes: Uint8Array, seed: bigint): bigint {
  if (WebAssembly === undefined) return hashInJs(bytes, seed);
  instance ??= new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(HASH_MODULE, "base64"))).exports;
  const { memory, hash } = instance;
  const missing = bytes.length - memory.buffer.byteLength;
  if (missing > 0) memory.grow(Math.ceil(missing / PAGE));
  new Uint8Array(memory.buffer).set(bytes);
  if (bytes.length > KEEP_BYTES) instance = undefined;
  return BigInt.asUintN(64, hash(0, bytes.length, seed));
}

const M64 = (1n << 64n) - 1n;
const rotl = (x: bigint, r: bigint): bigint => ((x << r) | (x >> (64n - r))) & M64;

/** HASH_MODULE's function, step for step (hash.test.ts holds them equal). */
export function hashInJs(bytes: Uint8Array, seed: bigint): bigint {
  let h = (seed + P5 + BigInt(bytes.length)) & M64;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length & ~7;
  let at = 0;
  for (; at < end; at += 8) {
    const k = (rotl((view.getBigUint64(at, true) * P2) & M64, 31n) * P1) & M64;
    h = (rotl(h ^ k, 27n) * P1 + P4) & M64;
  }
  for (; at < bytes.length; at++) h = (rotl(h ^ ((BigInt(bytes[at]!) * P5) & M64), 11n) * P1) & M64;
  h = ((h ^ (h >> 33n)) * P2) & M64;
  h = ((h ^ (h >> 29n)) * P3) & M64;
  return h ^ (h >> 32n);
}
