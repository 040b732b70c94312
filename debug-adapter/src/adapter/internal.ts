// Code that is not the user's: Node's internals and rt's own bundle. Their frames are shown
// dimmed, and "stop on entry" skips them.
// Covered by: debug-adapter/test/launch.test.mjs ("stack trace …" (Node's frames dimmed), "pause
// stops in the program's own code …", the stopOnEntry tests).
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const rtDirectories = new Map<string, boolean>();

export function isInternal(url: string): boolean {
  if (url.startsWith("node:") || (url !== "" && !url.includes(":"))) return true;
  if (!url.startsWith("file:")) return false;
  let file: string;
  try {
    file = fileURLToPath(url);
  } catch {
    return false;
  }
  return isRtBundle(path.dirname(file));
}

/** rt's bundle lives in the `dist` (or `bin`) folder of the package named "rt-runtime". */
function isRtBundle(directory: string): boolean {
  const known = rtDirectories.get(directory);
  if (known !== undefined) return known;
  const name = path.basename(directory);
  let answer = false;
  if (name === "dist" || name === "bin") {
    const manifest = path.join(directory, "..", "package.json");
    try {
      answer = existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "rt-runtime";
    } catch {
      answer = false;
    }
  }
  rtDirectories.set(directory, answer);
  return answer;
}
