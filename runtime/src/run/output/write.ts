// Writing to rt's stdout/stderr without creating process.stdout/stderr (their streams cost ~1 ms
// to set up, a visible share of `rt run <script>`), in order, line by line as scripts print. A
// reader that went away (`rt --filter '*' build | head`) ends the output quietly; the scripts
// go on, since stopping a build half-way is worse than losing its output.
import { writeSync } from "node:fs";

/** Descriptors found non-blocking: from then on their stream queues everything, keeping the order. */
const queued = new Set<1 | 2>();

export function writeFully(fd: 1 | 2, text: string): void {
  const stream = () => (fd === 1 ? process.stdout : process.stderr);
  if (queued.has(fd)) {
    stream().write(text);
    return;
  }
  let bytes = Buffer.from(text);
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE") return;
      if (code !== "EAGAIN") throw error;
      // Non-blocking (a parent made the descriptor so): the stream waits until it is writable.
      queued.add(fd);
      stream()
        .on("error", () => {})
        .write(bytes);
      return;
    }
  }
}

/**
 * Ends rt with `code` now that its scripts are done: process.exit skips Node's teardown of the
 * event loop and heap (~1 ms of every `rt run`). Output still queued on a non-blocking
 * descriptor must drain first, so then rt only sets the code and lets the loop end.
 */
export function exitWith(code: number): void {
  if (queued.size === 0) process.exit(code);
  process.exitCode = code;
}
