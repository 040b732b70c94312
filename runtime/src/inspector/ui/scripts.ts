// The program's scripts as the debugger shows them: the original source (from the inline
// source map rt writes for every transpiled file) and position mapping both ways.
import { LEAST_UPPER_BOUND, TraceMap, generatedPositionFor, originalPositionFor } from "@jridgewell/trace-mapping";

export interface Script {
  readonly scriptId: string;
  readonly url: string;
  /** Original source text (or the script's own text when it has no map). */
  readonly text: string;
  readonly map?: TraceMap;
}

export interface GeneratedLocation {
  readonly lineNumber: number;
  readonly columnNumber: number;
}

const INLINE = "data:application/json;base64,";

export function decodeInlineMap(sourceMapURL: string | undefined): TraceMap | undefined {
  if (!sourceMapURL?.startsWith(INLINE)) return undefined;
  try {
    const bytes = Uint8Array.from(atob(sourceMapURL.slice(INLINE.length)), (c) => c.charCodeAt(0));
    return new TraceMap(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/** 1-based original line of a 0-based generated location. */
export function originalLine(script: Script, location: GeneratedLocation): number {
  if (!script.map) return location.lineNumber + 1;
  const position = originalPositionFor(script.map, { line: location.lineNumber + 1, column: location.columnNumber });
  return position.line ?? location.lineNumber + 1;
}

/**
 * The generated location where a breakpoint on a 1-based original line goes: the first
 * mapped position on that line, or on the next line that has code.
 */
export function generatedLocation(script: Script, line: number): GeneratedLocation | undefined {
  if (!script.map) return { lineNumber: line - 1, columnNumber: 0 };
  const source = script.map.sources[0];
  if (source === null || source === undefined) return undefined;
  const lines = script.text.split("\n").length;
  for (let candidate = line; candidate <= lines; candidate++) {
    const position = generatedPositionFor(script.map, { source, line: candidate, column: 0, bias: LEAST_UPPER_BOUND });
    if (position.line !== null && position.column !== null) return { lineNumber: position.line - 1, columnNumber: position.column };
  }
  return undefined;
}
