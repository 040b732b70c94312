// Call sites that report original positions for transpiled files. V8 hands
// Error.prepareStackTrace call sites with the positions of the code it runs (the transpiled
// JavaScript); a program's own prepareStackTrace gets these instead.
import { fileURLToPath, pathToFileURL } from "node:url";
import { originalPosition, type OriginalPosition } from "./source-maps.js";

/** Paths of file: URLs seen in stacks: converting a URL is the costliest step of a frame. */
const urlPaths = new Map<string, string>();

/** The file path of a script name: V8 names ES modules by file: URL. */
function scriptPath(name: string): string {
  if (!name.startsWith("file:")) return name;
  let file = urlPaths.get(name);
  if (file === undefined) {
    file = fileURLToPath(name);
    urlPaths.set(name, file);
  }
  return file;
}

export function callSitePath(site: NodeJS.CallSite): string | undefined {
  const name = site.getFileName();
  return name ? scriptPath(name) : undefined;
}

/** The original position of a call site, when rt transpiled its file and the map knows it. */
export function mappedPosition(site: NodeJS.CallSite): OriginalPosition | undefined {
  const file = callSitePath(site);
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (!file || line === null || column === null || site.isEval()) return undefined;
  return originalPosition(file, line, column);
}

/**
 * V8's text for a frame (`fn (file:line:col)`), with the original position and, for a
 * transpiled ES module, its path instead of its file: URL, as Node's source-mapped stacks show.
 */
export function frameText(site: NodeJS.CallSite): string {
  return mapFrameText(String(site));
}

/**
 * The same from V8's text alone: the location is the text's tail, `(name:L:C)` or `name:L:C`.
 * Working from the text costs one call into V8 per frame instead of five (a stack formatted
 * 100,000 times a second must stay cheap).
 */
export function mapFrameText(text: string): string {
  if (text.includes("eval at ")) return text.replace(EVAL_ORIGIN, mapEvalOrigin);
  const wrapped = text.endsWith(")");
  const start = wrapped ? text.lastIndexOf("(") + 1 : text.lastIndexOf(" ") + 1;
  const end = wrapped ? text.length - 1 : text.length;
  const columnAt = text.lastIndexOf(":", end);
  const lineAt = text.lastIndexOf(":", columnAt - 1);
  if (lineAt <= start) return text;
  const file = scriptPath(text.slice(start, lineAt));
  const position = originalPosition(file, Number(text.slice(lineAt + 1, columnAt)), Number(text.slice(columnAt + 1, end)));
  if (!position) return text;
  return `${text.slice(0, start)}${position.file ?? file}:${position.line}:${position.column}${text.slice(end)}`;
}

// `eval at fn (file:L:C)`: where the eval was called, which V8 gives in generated positions.
const EVAL_ORIGIN = /\(((?:file:\/\/|\/)[^()]*?):(\d+):(\d+)\)/g;

function mapEvalOrigin(whole: string, name: string, line: string, column: string): string {
  const file = scriptPath(name);
  const position = originalPosition(file, Number(line), Number(column));
  return position ? `(${position.file ?? file}:${position.line}:${position.column})` : whole;
}

/** A V8 call site whose line and column are the original ones. */
export class OriginalCallSite implements NodeJS.CallSite {
  private readonly position: OriginalPosition | undefined;

  constructor(private readonly site: NodeJS.CallSite) {
    this.position = mappedPosition(site);
  }

  getThis(): unknown {
    return this.site.getThis();
  }
  getTypeName(): string | null {
    return this.site.getTypeName();
  }
  getFunction(): Function | undefined {
    return this.site.getFunction();
  }
  getFunctionName(): string | null {
    return this.site.getFunctionName();
  }
  getMethodName(): string | null {
    return this.site.getMethodName();
  }
  /** A bundle's frames name the original file, in the form V8 gave (a file: URL for ES modules). */
  getFileName(): string | null {
    const name = this.site.getFileName();
    const original = this.position?.file;
    if (!original) return name;
    return name?.startsWith("file:") ? pathToFileURL(original).href : original;
  }
  getLineNumber(): number | null {
    return this.position ? this.position.line : this.site.getLineNumber();
  }
  getColumnNumber(): number | null {
    return this.position ? this.position.column : this.site.getColumnNumber();
  }
  /** Always undefined: eval frames carry their origin in toString() (as V8's text shows it). */
  getEvalOrigin(): string | undefined {
    return undefined;
  }
  getScriptNameOrSourceURL(): string | null {
    return this.site.getScriptNameOrSourceURL();
  }
  getScriptHash(): string {
    return this.site.getScriptHash();
  }
  /** The enclosing function's position, in the generated code (no map lookup for it). */
  getEnclosingColumnNumber(): number | null {
    return this.site.getEnclosingColumnNumber();
  }
  getEnclosingLineNumber(): number | null {
    return this.site.getEnclosingLineNumber();
  }
  /** The character offset in the generated code. */
  getPosition(): number {
    return this.site.getPosition();
  }
  isToplevel(): boolean {
    return this.site.isToplevel();
  }
  isEval(): boolean {
    return this.site.isEval();
  }
  isNative(): boolean {
    return this.site.isNative();
  }
  isConstructor(): boolean {
    return this.site.isConstructor();
  }
  isAsync(): boolean {
    return this.site.isAsync();
  }
  isPromiseAll(): boolean {
    return this.site.isPromiseAll();
  }
  getPromiseIndex(): number | null {
    return this.site.getPromiseIndex();
  }
  toString(): string {
    return frameText(this.site);
  }
}
