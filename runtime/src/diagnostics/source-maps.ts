// Original positions for transpiled files and for JavaScript that links a source map (a bundle
// from `rt build`), decoded lazily: only when a stack trace asks. Node's own source-map support
// parses every map eagerly at module load (about 12 ms for a 5,000-line module), which would cost
// every run whether or not it ever throws; here a plain .js file is not even read until one of
// its frames is formatted.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { TraceMap } from "@jridgewell/trace-mapping";

export interface OriginalPosition {
  /** The original file, when it is not the generated one (a bundle's sources). */
  readonly file?: string;
  readonly line: number;
  /** 1-based, as in stack traces. */
  readonly column: number;
}

/** How a script names its source map (on its last line). */
export const MAP_COMMENT_START = "//# sourceMappingURL=";
export const INLINE_MAP = `${MAP_COMMENT_START}data:application/json;base64,`;
const MAP_COMMENT = /\/\/[#@] sourceMappingURL=([^\s'"]+)\s*$/;

interface MappedFile {
  /** The code V8 runs when rt transpiled it (the string V8 already keeps); undefined: read the file. */
  readonly code: string | undefined;
  /** Decoded on first use; null when the map is missing or corrupt. */
  map?: TraceMap | null;
  /** Mapped positions by `line * 2^20 + column`: a stack formatted often maps the same frames. */
  readonly positions: Map<number, OriginalPosition | null>;
}

const transpiled = new Map<string, MappedFile>();
/** JavaScript files rt did not transpile, seen in stacks: each is read once, on first use. */
const plain = new Map<string, MappedFile>();

/** Bumped when a file is transpiled again (a reload): cached mappings of its frames are stale. */
export let remappings = 0;

export function registerTranspiled(file: string, code: string): void {
  if (transpiled.has(file)) remappings++;
  transpiled.set(file, { code, positions: new Map() });
}

/**
 * Maps a 1-based generated line and column of `file` to the original source, if rt transpiled
 * it or it links a source map; undefined when the map has no answer (the caller keeps the
 * generated position).
 */
export function originalPosition(file: string, line: number, column: number): OriginalPosition | undefined {
  const entry = mappedFile(file);
  if (!entry) return undefined;
  const key = line * 0x100000 + column;
  let position = entry.positions.get(key);
  if (position === undefined) {
    const map = traceMap(file, entry);
    const found = map ? traceMapping().originalPositionFor(map, { line, column: column - 1 }) : undefined;
    position = null;
    if (found && found.line !== null && found.column !== null) {
      const source = entry.code === undefined && found.source ? path.resolve(found.source) : undefined;
      position = { ...(source !== undefined && source !== file && { file: source }), line: found.line, column: found.column + 1 };
    }
    entry.positions.set(key, position);
  }
  return position ?? undefined;
}

/** The original source text of a transpiled file, from its source map. */
export function originalSource(file: string): string | undefined {
  const entry = transpiled.get(file);
  const map = entry && traceMap(file, entry);
  if (!map) return undefined;
  return map.sourcesContent?.[0] ?? undefined;
}

function mappedFile(file: string): MappedFile | undefined {
  const entry = transpiled.get(file);
  if (entry || !/\.[cm]?js$/.test(file) || !path.isAbsolute(file)) return entry;
  let linked = plain.get(file);
  if (!linked) plain.set(file, (linked = { code: undefined, positions: new Map() }));
  return linked;
}

function traceMap(file: string, entry: MappedFile): TraceMap | null {
  if (entry.map === undefined) {
    entry.map = null;
    try {
      entry.map = namedMap(entry.code ?? readFileSync(file, "utf8"), file);
    } catch {
      // A missing or corrupt map: stacks keep the generated positions.
    }
  }
  return entry.map;
}

/**
 * The map the last `//# sourceMappingURL=` of `file`'s code names: inline, or a file, named
 * relative to `file`'s URL (a large transpiled file's map beside its cache entry is named by its
 * absolute path) or by a file: URL.
 */
function namedMap(code: string, file: string): TraceMap | null {
  const at = code.lastIndexOf(INLINE_MAP);
  if (at !== -1) return new (traceMapping().TraceMap)(Buffer.from(code.slice(at + INLINE_MAP.length).trim(), "base64").toString("utf8"), file);
  const reference = MAP_COMMENT.exec(code.slice(-4096))?.[1];
  if (!reference) return null;
  const url = new URL(reference, pathToFileURL(file));
  if (url.protocol !== "file:") return null;
  const mapFile = fileURLToPath(url);
  return new (traceMapping().TraceMap)(readFileSync(mapFile, "utf8"), mapFile);
}

/**
 * `file` as a reference to put in a `//# sourceMappingURL=` comment: its absolute path as a URL
 * path (`/home/me/.cache/...`), resolved against the script's file: URL by debuggers, coverage
 * tools and Node (which reads no map named by a file: URL, only data: URLs and paths).
 * Percent-encoded, quotes included (a URL path leaves ' as it is): readers of the comment stop at
 * quotes and white space.
 */
export function pathReference(file: string): string {
  return pathToFileURL(file).pathname.replaceAll("'", "%27");
}

/** Where the code's source-map comment starts (the last line), or -1 without one. */
export function mapCommentAt(code: string): number {
  const at = code.lastIndexOf(MAP_COMMENT_START);
  return at !== -1 && MAP_COMMENT.test(code.slice(at)) ? at : -1;
}

function traceMapping(): typeof import("@jridgewell/trace-mapping") {
  return require("@jridgewell/trace-mapping") as typeof import("@jridgewell/trace-mapping");
}
