// Small text helpers shared by the error reporters.

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
