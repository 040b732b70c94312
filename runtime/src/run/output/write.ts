// Writing to rt's stdout/stderr without creating process.stdout/stderr (their streams cost ~1 ms
// to set up, a visible share of `rt run <script>`); a reader that went away ends the output quietly.
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
