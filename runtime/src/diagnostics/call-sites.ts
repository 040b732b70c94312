// Call sites that report original positions for transpiled files. V8 hands
// Error.prepareStackTrace call sites with the positions of the code it runs (the transpiled
// JavaScript); a program's own prepareStackTrace gets these instead.
import { fileURLToPath } from "node:url";
import { originalPosition, type OriginalPosition } from "./source-maps.js";

/** The file path of a call site's script: V8 names ES modules by file: URL. */
export function callSitePath(site: NodeJS.CallSite): string | undefined {
  const name = site.getFileName();
  if (!name) return undefined;
  return name.startsWith("file:") ? fileURLToPath(name) : name;
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
export function frameText(site: NodeJS.CallSite, position = mappedPosition(site)): string {
  const text = String(site);
  if (site.isEval()) return text.replace(EVAL_ORIGIN, mapEvalOrigin);
  if (!position) return text;
  const name = site.getFileName()!;
  const generated = `${name}:${site.getLineNumber()}:${site.getColumnNumber()}`;
  const at = text.lastIndexOf(generated);
  if (at === -1) return text;
  return `${text.slice(0, at)}${callSitePath(site)}:${position.line}:${position.column}${text.slice(at + generated.length)}`;
}

// `eval at fn (file:L:C)`: where the eval was called, which V8 gives in generated positions.
const EVAL_ORIGIN = /\(((?:file:\/\/|\/)[^()]*?):(\d+):(\d+)\)/g;

function mapEvalOrigin(whole: string, name: string, line: string, column: string): string {
  const file = name.startsWith("file:") ? fileURLToPath(name) : name;
  const position = originalPosition(file, Number(line), Number(column));
  return position ? `(${file}:${position.line}:${position.column})` : whole;
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
  getFileName(): string | null {
    return this.site.getFileName();
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
    return frameText(this.site, this.position);
  }
}
