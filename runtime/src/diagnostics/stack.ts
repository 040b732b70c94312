// V8-format stack traces (`Error: msg\n    at fn (file:line:col)`) whose frames in transpiled
// files show original positions, as paths (not file: URLs) like Node's source-mapped traces.
// rt's own frames (its launcher and bundle) are left out: they are not the user's code.
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { isTranspiled, originalPosition } from "./source-maps.js";

export interface ThrowSite {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly sourceLine?: string;
}

/** Where each formatted error was created, for the uncaught-error report. */
const throwSites = new WeakMap<object, ThrowSite>();
const RT_DIRECTORIES = [__dirname, path.join(__dirname, "..", "bin")].map((dir) => dir + path.sep);

export function installStackTraces(): void {
  Error.prepareStackTrace = (error, callSites) => {
    const frames: string[] = [];
    for (const site of callSites) {
      const fileName = site.getFileName();
      if (fileName && RT_DIRECTORIES.some((dir) => fileName.startsWith(dir))) continue;
      const frame = mapCallSite(site);
      if (frames.length === 0 && frame.site && typeof error === "object" && error !== null) throwSites.set(error, frame.site);
      frames.push(`\n    at ${frame.text}`);
    }
    return `${errorHeader(error)}${frames.join("")}`;
  };
}

export function throwSiteOf(error: object): ThrowSite | undefined {
  return throwSites.get(error);
}

function errorHeader(error: unknown): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return "Error";
  }
}

function mapCallSite(site: NodeJS.CallSite): { text: string; site?: ThrowSite } {
  const text = String(site);
  const name = site.getFileName();
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (!name || line === null || column === null || site.isEval()) return { text };
  const file = name.startsWith("file:") ? fileURLToPath(name) : name;
  if (!isTranspiled(file)) return { text, site: path.isAbsolute(file) ? { file, line, column } : undefined };
  const original = originalPosition(file, line, column);
  const generated = `${name}:${line}:${column}`;
  const at = text.lastIndexOf(generated);
  if (!original || at === -1) return { text };
  return {
    text: `${text.slice(0, at)}${file}:${original.line}:${original.column}${text.slice(at + generated.length)}`,
    site: { file, ...original },
  };
}
