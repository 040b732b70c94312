// Writing to rt's stdout/stderr without creating process.stdout/stderr (their streams cost ~1 ms
// to set up, a visible share of `rt run <script>`), in order, line by line as scripts print. A
// reader that went away (`rt --filter '*' build | head`) ends the output quietly; the scripts
// go on, since stopping a build half-way is worse than losing its output.
import { writeSync } from "node:fs";

export function writeFully(fd: 1 | 2, text: string): void {
  let bytes = Buffer.from(text);
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE") return;
      if (code !== "EAGAIN") throw error;
      // A non-blocking descriptor (shared with a parent that made it so): let the stream queue it.
      (fd === 1 ? process.stdout : process.stderr).write(bytes);
      return;
    }
  }
}
