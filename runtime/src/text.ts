// Small text helpers shared by the error reporters.
import * as path from "node:path";

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** `file:line:col`, the message, then the source line with a caret under the column (1-based). */
export function codeFrame(location: string, message: string, lineText: string, column: number): string {
  const caret = " ".repeat(Math.max(0, column - 1)) + "^";
  return `${location}: ${message}\n${lineText}\n${caret}\n`;
}

/** Paths under the working directory are shown relative to it, like a compiler does. */
export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

/** The candidates close enough to `word` to be a plausible typo of it, closest first. */
export function closestMatches(word: string, candidates: readonly string[]): string[] {
  const limit = Math.max(2, Math.floor(word.length / 3));
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(word, candidate) }))
    .filter(({ distance }) => distance <= limit)
    .sort((a, b) => a.distance - b.distance)
    .map(({ candidate }) => candidate);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
