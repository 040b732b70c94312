// The stdio frame checker: frames pass whole however the bytes are split, and a bad header block
// is reported once and skipped up to the next Content-Length header.
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { framedInput } from "./framing.js";

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** What comes out of the checker for `chunks` written one by one, and the problems reported. */
async function pass(chunks: readonly (string | Buffer)[]): Promise<{ output: string; problems: string[] }> {
  const input = new PassThrough();
  const problems: string[] = [];
  const framed = framedInput(input, (problem) => problems.push(problem));
  const output: Buffer[] = [];
  framed.on("data", (chunk: Buffer) => output.push(chunk));
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await new Promise((resolve) => framed.on("end", resolve));
  return { output: Buffer.concat(output).toString("utf8"), problems };
}

test("valid frames pass unchanged, even split one byte at a time (multi-byte characters too)", async () => {
  const text = frame('{"a":"é€"}') + frame("{}");
  const { output, problems } = await pass([...Buffer.from(text, "utf8")].map((byte) => Buffer.of(byte)));
  assert.deepEqual({ output, problems }, { output: text, problems: [] });
});

test("a bad header block is reported once and skipped with its body; the next frame passes", async () => {
  const { output, problems } = await pass(['Content-Length: 1x\r\n\r\n{"id":1}Content-Le', `ngth: 2\r\n\r\n{}${frame("[]")}`]);
  assert.equal(output, frame("{}") + frame("[]"));
  assert.deepEqual(problems, ['ignored Content-Length "1x", not a whole number of bytes; reading on from the next Content-Length header']);
});

test("bytes that never form a header block are dropped after 8 KiB, with one report", async () => {
  const { output, problems } = await pass(["x".repeat(20_000), frame("{}")]);
  assert.equal(output, frame("{}"));
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /^ignored 8192 bytes without the blank line that ends a header block/);
});
