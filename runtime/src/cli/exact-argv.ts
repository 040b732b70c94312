// Command-line arguments exactly as the OS passed them. Node decodes argv as UTF-8 and turns
// every byte that is not UTF-8 into U+FFFD, so `$'\xff'` and `$'\xfe'` both arrive as "\uFFFD":
// as credential names they would be one item. Here such bytes become lone surrogates
// (U+DC80-U+DCFF, Python's surrogateescape, PEP 383): different bytes stay different, and the
// credential checks refuse them as not UTF-8, as secret-tool does.
import { readFileSync } from "node:fs";

const REPLACEMENT = "\uFFFD";
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lossy = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * `args` (a subsequence of process.argv's, in order) as their bytes were: unchanged unless one
 * has a U+FFFD. On Linux the bytes are in /proc/self/cmdline; where they cannot be read (macOS,
 * Windows, a process title that overwrote them), a U+FFFD cannot be told from a replaced byte
 * and is taken as one.
 */
export function exactArguments(args: readonly string[], argv: readonly string[] = process.argv): string[] {
  if (!args.some((arg) => arg.includes(REPLACEMENT))) return [...args];
  const raw = rawArguments(argv);
  let next = 0;
  return args.map((arg) => {
    // Each arg is the next entry of argv with its text (flags may stand between them).
    while (raw && next < raw.length && lossy.decode(raw[next]) !== arg) next++;
    const bytes = raw?.[next++];
    if (!bytes) return arg.replaceAll(REPLACEMENT, "\uDCFF");
    return decodes(bytes) ? arg : surrogateEscape(bytes);
  });
}

/** The bytes of process.argv's entries after the script, or undefined where they cannot be read. */
function rawArguments(argv: readonly string[]): Buffer[] | undefined {
  let cmdline: Buffer;
  try {
    cmdline = readFileSync("/proc/self/cmdline");
  } catch {
    return undefined;
  }
  const entries: Buffer[] = [];
  for (let start = 0; start < cmdline.length; ) {
    const end = cmdline.indexOf(0, start);
    entries.push(cmdline.subarray(start, end === -1 ? cmdline.length : end));
    start = end === -1 ? cmdline.length : end + 1;
  }
  // The program's arguments come last, after node's own options and the script.
  const args = argv.slice(2);
  const tail = entries.slice(entries.length - args.length);
  if (tail.length !== args.length || tail.some((bytes, index) => lossy.decode(bytes) !== args[index])) return undefined;
  return tail;
}

function decodes(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** UTF-8 text, each byte outside a valid sequence as the lone surrogate U+DC00 + byte. */
export function surrogateEscape(bytes: Uint8Array): string {
  let text = "";
  for (let at = 0; at < bytes.length; ) {
    // A valid sequence is 1-4 bytes long; the shortest prefix that decodes is one code point.
    const length = [1, 2, 3, 4].find((n) => at + n <= bytes.length && decodes(bytes.subarray(at, at + n)));
    if (length) {
      text += strict.decode(bytes.subarray(at, at + length));
      at += length;
    } else {
      text += String.fromCharCode(0xdc00 + bytes[at]!);
      at += 1;
    }
  }
  return text;
}
