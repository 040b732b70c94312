// Original positions for transpiled files, decoded lazily: only when a stack trace asks.
// Node's own source-map support parses every inline map eagerly at module load (about 12 ms
// for a 5,000-line module), which would cost every run whether or not it ever throws.
import type { TraceMap } from "@jridgewell/trace-mapping";

export interface OriginalPosition {
  readonly line: number;
  /** 1-based, as in stack traces. */
  readonly column: number;
  /** The original source line's text, when the map carries the sources. */
  readonly sourceLine?: string;
}

const INLINE_MAP = "//# sourceMappingURL=data:application/json;base64,";

/** Transpiled code by file path; the strings are the ones V8 already keeps for the scripts. */
const transpiled = new Map<string, string>();
const decoded = new Map<string, TraceMap | null>();

export function registerTranspiled(file: string, code: string): void {
  transpiled.set(file, code);
  decoded.delete(file);
}

export function isTranspiled(file: string): boolean {
  return transpiled.has(file);
}

/** Maps a 1-based generated line and column of `file` to the original source, if rt transpiled it. */
export function originalPosition(file: string, line: number, column: number): OriginalPosition | undefined {
  const map = traceMap(file);
  if (!map) return undefined;
  const { originalPositionFor, sourceContentFor } = traceMapping();
  const position = originalPositionFor(map, { line, column: column - 1 });
  if (position.line === null || position.column === null) return undefined;
  const content = position.source === null ? null : sourceContentFor(map, position.source);
  return { line: position.line, column: position.column + 1, sourceLine: content?.split("\n")[position.line - 1] };
}

function traceMap(file: string): TraceMap | undefined {
  let map = decoded.get(file);
  if (map === undefined) {
    const code = transpiled.get(file);
    const at = code?.lastIndexOf(INLINE_MAP) ?? -1;
    map = null;
    if (code && at !== -1) {
      const json = Buffer.from(code.slice(at + INLINE_MAP.length).trim(), "base64").toString("utf8");
      map = new (traceMapping().TraceMap)(json);
    }
    decoded.set(file, map);
  }
  return map ?? undefined;
}

function traceMapping(): typeof import("@jridgewell/trace-mapping") {
  return require("@jridgewell/trace-mapping") as typeof import("@jridgewell/trace-mapping");
}
