// The scripts the program has loaded and their source maps: which original file a generated
// position belongs to and back. rt's transpiled files carry inline source maps (data: URLs);
// a linked map (a file next to the script) is read from disk.
// Covered by: debug-adapter/test/launch.test.mjs (breakpoints and stacks through source maps in
// every test; "a frame without a file …" for source references), workers.test.mjs.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { TraceMap } from "@jridgewell/trace-mapping";
import type { Protocol } from "devtools-protocol";
import { isInternal } from "./internal.js";

export interface Script {
  readonly scriptId: string;
  readonly url: string;
  /** The file the script was loaded from, if it is a file. */
  readonly file: string | undefined;
  readonly map: TraceMap | undefined;
  /** The original files the map names, as absolute paths. */
  readonly sources: readonly string[];
  /** A DAP handle for sources without a file (node: internals, eval). */
  sourceReference: number;
}

/** A position in an original (or unmapped) file; lines and columns 1-based, as DAP has them. */
export interface OriginalPosition {
  readonly path: string | undefined;
  readonly script: Script;
  readonly line: number;
  readonly column: number;
}

function traceMapping(): typeof import("@jridgewell/trace-mapping") {
  return require("@jridgewell/trace-mapping") as typeof import("@jridgewell/trace-mapping");
}

export class Sources {
  private readonly byId = new Map<string, Script>();
  private readonly byReference = new Map<number, Script>();
  private nextReference: number;

  /** `base`: where this thread's source references are numbered from. */
  constructor(base = 0) {
    this.nextReference = base + 1;
  }

  clear(): void {
    this.byId.clear();
  }

  get(scriptId: string): Script | undefined {
    return this.byId.get(scriptId);
  }

  byReferenceId(reference: number): Script | undefined {
    return this.byReference.get(reference);
  }

  add(event: Protocol.Debugger.ScriptParsedEvent): Script {
    const file = event.url.startsWith("file:") ? safeFilePath(event.url) : undefined;
    // rt's own bundle has a (large) map of rt's sources: not the user's, never read.
    const map = isInternal(event.url) ? undefined : loadMap(event.sourceMapURL, event.url);
    const sources = map
      ? map.resolvedSources.map((source) => (source?.startsWith("file:") ? fileURLToPath(source) : path.resolve(source ?? "")))
      : file
        ? [file]
        : [];
    const script: Script = { scriptId: event.scriptId, url: event.url, file, map, sources, sourceReference: 0 };
    this.byId.set(event.scriptId, script);
    return script;
  }

  /** Scripts whose original sources include `file`. */
  scriptsOf(file: string): Script[] {
    const wanted = normalise(file);
    return [...this.byId.values()].filter((script) => script.sources.some((source) => normalise(source) === wanted));
  }

  /** A DAP source reference for a script that has no file to open. */
  referenceFor(script: Script): number {
    if (!script.sourceReference) {
      script.sourceReference = this.nextReference++;
      this.byReference.set(script.sourceReference, script);
    }
    return script.sourceReference;
  }

  /** CDP positions are 0-based. */
  toOriginal(scriptId: string, lineNumber: number, columnNumber = 0): OriginalPosition | undefined {
    const script = this.byId.get(scriptId);
    if (!script) return undefined;
    if (!script.map) return { path: script.file, script, line: lineNumber + 1, column: columnNumber + 1 };
    const { originalPositionFor, GREATEST_LOWER_BOUND, LEAST_UPPER_BOUND } = traceMapping();
    let found = originalPositionFor(script.map, { line: lineNumber + 1, column: columnNumber, bias: GREATEST_LOWER_BOUND });
    if (found.source === null) found = originalPositionFor(script.map, { line: lineNumber + 1, column: columnNumber, bias: LEAST_UPPER_BOUND });
    if (found.source === null) return { path: script.sources[0], script, line: 1, column: 1 };
    const original = found.source.startsWith("file:") ? fileURLToPath(found.source) : path.resolve(found.source);
    return { path: original, script, line: found.line, column: found.column + 1 };
  }

  /**
   * Where a breakpoint on `line` of the original `file` goes in `script`: the first mapped
   * position on that line, else on the next lines that have code (as editors move breakpoints).
   */
  toGenerated(script: Script, file: string, line: number, column?: number): { lineNumber: number; columnNumber: number } | undefined {
    if (!script.map) return { lineNumber: line - 1, columnNumber: column ? column - 1 : 0 };
    const { generatedPositionFor, LEAST_UPPER_BOUND } = traceMapping();
    const wanted = normalise(file);
    const index = script.sources.findIndex((source) => normalise(source) === wanted);
    const source = script.map.sources[index];
    if (index === -1 || source == null) return undefined;
    const lastLine = script.map.sourcesContent?.[index]?.split("\n").length ?? line + 50;
    for (let candidate = line; candidate <= lastLine; candidate++) {
      const found = generatedPositionFor(script.map, {
        source,
        line: candidate,
        column: candidate === line && column ? column - 1 : 0,
        bias: LEAST_UPPER_BOUND,
      });
      if (found.line !== null) return { lineNumber: found.line - 1, columnNumber: found.column };
    }
    return undefined;
  }
}

function safeFilePath(url: string): string | undefined {
  try {
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}

function loadMap(sourceMapURL: string | undefined, scriptUrl: string): TraceMap | undefined {
  if (!sourceMapURL) return undefined;
  try {
    let text: string;
    if (sourceMapURL.startsWith("data:")) {
      const comma = sourceMapURL.indexOf(",");
      const meta = sourceMapURL.slice(0, comma);
      const body = sourceMapURL.slice(comma + 1);
      text = meta.endsWith(";base64") ? Buffer.from(body, "base64").toString("utf8") : decodeURIComponent(body);
    } else {
      const mapUrl = new URL(sourceMapURL, scriptUrl);
      if (mapUrl.protocol !== "file:") return undefined;
      text = readFileSync(mapUrl, "utf8");
    }
    const { TraceMap } = traceMapping();
    return new TraceMap(text, scriptUrl);
  } catch {
    return undefined;
  }
}

/** File paths compare as the file system spells them (case-insensitively on Windows and macOS). */
export function normalise(file: string): string {
  const resolved = path.resolve(file);
  return process.platform === "win32" || process.platform === "darwin" ? resolved.toLowerCase() : resolved;
}

export function fileUrl(file: string): string {
  return pathToFileURL(file).href;
}
