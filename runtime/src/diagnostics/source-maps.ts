// Original positions for transpiled files, decoded lazily: only when a stack trace asks.
// Node's own source-map support parses every inline map eagerly at module load (about 12 ms
// for a 5,000-line module), which would cost every run whether or not it ever throws.
import type { TraceMap } from "@jridgewell/trace-mapping";

export interface OriginalPosition {
  readonly line: number;
  /** 1-based, as in stack traces. */
  readonly column: number;
}

const INLINE_MAP = "//# sourceMappingURL=data:application/json;base64,";

interface TranspiledFile {
  /** The code V8 runs; the string is the one V8 already keeps for the script. */
  readonly code: string;
  /** Decoded on first use; null when the map is missing or corrupt. */
  map?: TraceMap | null;
  /** Mapped positions by `line * 2^20 + column`: a stack formatted often maps the same frames. */
  readonly positions: Map<number, OriginalPosition | null>;
}

const transpiled = new Map<string, TranspiledFile>();

/** Bumped when a file is transpiled again (a reload): cached mappings of its frames are stale. */
export let remappings = 0;

export function registerTranspiled(file: string, code: string): void {
  if (transpiled.has(file)) remappings++;
  transpiled.set(file, { code, positions: new Map() });
}

export function isTranspiled(file: string): boolean {
  return transpiled.has(file);
}

/**
 * Maps a 1-based generated line and column of `file` to the original source, if rt transpiled
 * it; undefined when it did not or the map has no answer (the caller keeps the generated one).
 */
export function originalPosition(file: string, line: number, column: number): OriginalPosition | undefined {
  const entry = transpiled.get(file);
  if (!entry) return undefined;
  const key = line * 0x100000 + column;
  let position = entry.positions.get(key);
  if (position === undefined) {
    const map = traceMap(entry);
    const found = map ? traceMapping().originalPositionFor(map, { line, column: column - 1 }) : undefined;
    position = found && found.line !== null && found.column !== null ? { line: found.line, column: found.column + 1 } : null;
    entry.positions.set(key, position);
  }
  return position ?? undefined;
}

/** The original source text of a transpiled file, from its source map. */
export function originalSource(file: string): string | undefined {
  const entry = transpiled.get(file);
  const map = entry && traceMap(entry);
  if (!map) return undefined;
  return map.sourcesContent?.[0] ?? undefined;
}

function traceMap(entry: TranspiledFile): TraceMap | null {
  if (entry.map === undefined) {
    entry.map = null;
    const at = entry.code.lastIndexOf(INLINE_MAP);
    if (at !== -1) {
      try {
        const json = Buffer.from(entry.code.slice(at + INLINE_MAP.length).trim(), "base64").toString("utf8");
        entry.map = new (traceMapping().TraceMap)(json);
      } catch {
        // A corrupt map: stacks keep the generated positions.
      }
    }
  }
  return entry.map;
}

function traceMapping(): typeof import("@jridgewell/trace-mapping") {
  return require("@jridgewell/trace-mapping") as typeof import("@jridgewell/trace-mapping");
}
