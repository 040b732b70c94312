import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { HASH_MODULE, hashBytes, hashInJs, P1, P2, P3, P4, P5 } from "./hash.js";

// HASH_MODULE's listing: the module assembled from it must be the one hash.ts loads.
// (func $hash (param $at i32) (param $length i32) (param $seed i64) (result i64) (local $h i64) (local $end i32) (local $t i64))
const [AT, LENGTH, SEED, H, END, T] = [0, 1, 2, 3, 4, 5];
const [BLOCK, LOOP, BR, BR_IF, END_OP, EMPTY] = [0x02, 0x03, 0x0c, 0x0d, 0x0b, 0x40];
const [GET, SET, TEE] = [0x20, 0x21, 0x22];
const [I32_CONST, I64_CONST, I32_ADD, I32_AND, I32_GE_U] = [0x41, 0x42, 0x6a, 0x71, 0x4f];
const [I64_LOAD, I64_LOAD8_U, I64_ADD, I64_MUL, I64_OR, I64_XOR, I64_SHL, I64_SHR_U, I64_EXTEND_I32_U] = [0x29, 0x31, 0x7c, 0x7e, 0x84, 0x85, 0x86, 0x88, 0xad];

/** LEB128, signed (constants) or not (sizes and counts). */
function leb(value: bigint, signed: boolean): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = Number(value & 0x7fn);
    value >>= 7n;
    const done = signed ? (value === 0n && !(byte & 0x40)) || (value === -1n && (byte & 0x40) !== 0) : value === 0n;
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}
const i64 = (value: bigint): number[] => [I64_CONST, ...leb(BigInt.asIntN(64, value), true)];
const i32 = (value: number): number[] => [I32_CONST, ...leb(BigInt(value), true)];
const vector = (bytes: number[]): number[] => [...leb(BigInt(bytes.length), false), ...bytes];
/** Rotates the value on the stack left by `bits`, through local $t (i64.rotl is a call in V8's first tier, Liftoff). */
const rotlBy = (bits: bigint): number[] => [TEE, T, ...i64(bits), I64_SHL, GET, T, ...i64(64n - bits), I64_SHR_U, I64_OR];
const section = (id: number, bytes: number[]): number[] => [id, ...vector(bytes)];
const name = (text: string): number[] => vector([...Buffer.from(text)]);

/** `while (at < end) { body; at += step }` */
const loop = (step: number, body: number[]): number[] => [
  ...[BLOCK, EMPTY, LOOP, EMPTY, GET, AT, GET, END, I32_GE_U, BR_IF, 1],
  ...body,
  ...[GET, AT, ...i32(step), I32_ADD, SET, AT, BR, 0, END_OP, END_OP],
];

const body = [
  ...[3, 1, 0x7e, 1, 0x7f, 1, 0x7e], // locals: $h i64, $end i32, $t i64
  // h = seed + P5 + length
  ...[GET, SEED, ...i64(P5), I64_ADD, GET, LENGTH, I64_EXTEND_I32_U, I64_ADD, SET, H],
  // 8 bytes at a time: h = rotl(h ^ rotl(word * P2, 31) * P1, 27) * P1 + P4
  ...[GET, AT, GET, LENGTH, ...i32(-8), I32_AND, I32_ADD, SET, END],
  ...loop(8, [
    ...[GET, H, GET, AT, I64_LOAD, 3, 0, ...i64(P2), I64_MUL, ...rotlBy(31n), ...i64(P1), I64_MUL],
    ...[I64_XOR, ...rotlBy(27n), ...i64(P1), I64_MUL, ...i64(P4), I64_ADD, SET, H],
  ]),
  // the last 0-7 bytes one at a time: h = rotl(h ^ byte * P5, 11) * P1
  ...[GET, AT, GET, LENGTH, ...i32(7), I32_AND, I32_ADD, SET, END],
  ...loop(1, [GET, H, GET, AT, I64_LOAD8_U, 0, 0, ...i64(P5), I64_MUL, I64_XOR, ...rotlBy(11n), ...i64(P1), I64_MUL, SET, H]),
  // avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32
  ...[GET, H, GET, H, ...i64(33n), I64_SHR_U, I64_XOR, ...i64(P2), I64_MUL, TEE, H],
  ...[GET, H, ...i64(29n), I64_SHR_U, I64_XOR, ...i64(P3), I64_MUL, TEE, H],
  ...[GET, H, ...i64(32n), I64_SHR_U, I64_XOR, END_OP],
];

const assembled = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [1, 0x60, 3, 0x7f, 0x7f, 0x7e, 1, 0x7e]), // type: (i32, i32, i64) -> i64
  ...section(3, [1, 0]), // one function of that type
  ...section(5, [1, 0, 1]), // one memory, 1 page to start
  ...section(7, [2, ...name("hash"), 0, 0, ...name("memory"), 2, 0]),
  ...section(10, [1, ...vector(body)]),
]);

test("HASH_MODULE is what its listing assembles to", () => {
  assert.equal(HASH_MODULE, Buffer.from(assembled).toString("base64"), `paste into hash.ts: ${Buffer.from(assembled).toString("base64")}`);
});

test("hashBytes: stable values, the seed and every byte count, a view at any offset hashes as its bytes", () => {
  // Pinned: a change of the function changes every cache key and entry checksum (all miss once).
  assert.equal(hashBytes(Buffer.from(""), ""), "a258d6ec1fb5d95c");
  assert.equal(hashBytes(Buffer.from("a"), "k"), "156ed9460c1a8fee");
  assert.equal(hashBytes(Buffer.from("hello, world\n"), "seed"), "d22e88df1918d042");
  assert.equal(hashBytes(Buffer.from("x".repeat(1001)), "long"), "9a6368092af80a6a");
  assert.notEqual(hashBytes(Buffer.from("hello, world\n"), "seed2"), "d22e88df1918d042");
  assert.notEqual(hashBytes(Buffer.from("x".repeat(1000)), "long"), "9a6368092af80a6a");
  // Not a multiple of 8 from its buffer's start.
  assert.equal(hashBytes(Buffer.from("_hello, world\n").subarray(1), "seed"), "d22e88df1918d042");
});

test("the WebAssembly function and hashInJs (its stand-in without WebAssembly) agree at every length", () => {
  for (const length of [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 65536, 65537, 200_003]) {
    const bytes = randomBytes(length + 1).subarray(1);
    const seed = hashInJs(Buffer.from("seed"), 0n);
    assert.equal(hashBytes(bytes, "seed"), hashInJs(bytes, seed).toString(16).padStart(16, "0"), `length ${length}`);
  }
});
