// The user's breakpoints (per original file, as DAP sets them) and the V8 breakpoints that stand
// for them in each loaded script. A breakpoint in a file that is not loaded yet is set when the
// script that holds it is parsed, while the program is held before that script runs (see
// stops.ts: instrumentation pauses), so it is never missed. Hit counts are counted here; log
// messages and conditions become the V8 breakpoint's condition.
// Covered by: debug-adapter/test/launch.test.mjs ("breakpoints in app.ts and in lazily imported
// lazy.ts …", "a CommonJS file …", "conditional and hit-count breakpoints, logpoints …",
// "terminate … restart starts it again with the same breakpoints"), workers.test.mjs (the
// editor's breakpoint verified by the worker's copy), children.test.mjs.
import * as path from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { CdpSession } from "../cdp/connection.js";
import { fileUrl, normalise, type Script, type Sources } from "./sources.js";

export interface UserBreakpoint {
  readonly id: number;
  readonly file: string;
  readonly line: number;
  readonly column: number | undefined;
  readonly condition: string | undefined;
  readonly hitCondition: ((hits: number) => boolean) | undefined;
  readonly logMessage: string | undefined;
  /** A hit condition that can't be read: never set. */
  readonly invalid: boolean;
  hits: number;
  verified: boolean;
  actualLine: number | undefined;
  actualColumn: number | undefined;
  message: string | undefined;
  /** V8 breakpoint ids, and the scripts already handled. */
  readonly v8Ids: Set<string>;
  readonly scripts: Set<string>;
}

/** Logpoint evaluations carry this URL, so their console output is shown at the breakpoint. */
export const LOGPOINT_URL_PREFIX = "rt-logpoint:";

/** Plain JavaScript may run untranspiled: its breakpoints can be set by URL before it loads. */
const PLAIN_JS = new Set([".js", ".mjs", ".cjs"]);

export class Breakpoints {
  private nextId = 1;
  private readonly byFile = new Map<string, UserBreakpoint[]>();
  private readonly byV8Id = new Map<string, UserBreakpoint>();
  /**
   * set, reconnect and scriptLoaded take turns: a client's setBreakpoints may arrive while a new
   * connection or a parsed script is being given its breakpoints, and must not leave a copy of a
   * breakpoint it replaced in V8 (a stop nobody asked for).
   */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sources: Sources,
    private readonly changed: (breakpoint: UserBreakpoint) => void,
  ) {}

  /** Replaces the breakpoints of `file`; sets them in the program when connected. */
  set(file: string, requested: readonly DebugProtocol.SourceBreakpoint[], cdp: CdpSession | undefined): Promise<UserBreakpoint[]> {
    return this.inTurn(async () => {
      const key = normalise(file);
      for (const old of this.byFile.get(key) ?? []) await this.remove(old, cdp);
      const created = requested.map((spec) => this.create(file, spec));
      this.byFile.set(key, created);
      if (cdp) await Promise.all(created.map((breakpoint) => this.applyEverywhere(breakpoint, cdp)));
      return created;
    });
  }

  all(): UserBreakpoint[] {
    return [...this.byFile.values()].flat();
  }

  /** A new connection (a restarted program): every breakpoint is set afresh. */
  reconnect(cdp: CdpSession): Promise<void> {
    return this.inTurn(async () => {
      this.byV8Id.clear();
      for (const breakpoint of this.all()) {
        breakpoint.v8Ids.clear();
        breakpoint.scripts.clear();
        breakpoint.hits = 0;
      }
      await Promise.all(this.all().map((breakpoint) => this.applyEverywhere(breakpoint, cdp)));
    });
  }

  /** Sets the breakpoints of the files `script` was compiled from; resolves when they are set. */
  scriptLoaded(script: Script, cdp: CdpSession): Promise<void> {
    return this.inTurn(async () => {
      const work: Promise<void>[] = [];
      for (const source of script.sources) {
        for (const breakpoint of this.byFile.get(normalise(source)) ?? []) work.push(this.apply(breakpoint, script, cdp));
      }
      await Promise.all(work);
    });
  }

  /** The breakpoints a pause hit, with their hit counts advanced; `shouldStop` tells whether any counts. */
  hit(v8Ids: readonly string[]): { breakpoints: UserBreakpoint[]; shouldStop: boolean } {
    const breakpoints = [...new Set(v8Ids.map((id) => this.byV8Id.get(id)).filter((b): b is UserBreakpoint => b !== undefined))];
    for (const breakpoint of breakpoints) breakpoint.hits++;
    const shouldStop = breakpoints.length === 0 || breakpoints.some((b) => !b.logMessage && (!b.hitCondition || b.hitCondition(b.hits)));
    return { breakpoints, shouldStop };
  }

  indexInFile(breakpoint: UserBreakpoint): number {
    return (this.byFile.get(normalise(breakpoint.file)) ?? []).indexOf(breakpoint);
  }

  verifiedElsewhere(file: string, index: number, line: number, column: number | undefined): void {
    const breakpoint = this.byFile.get(normalise(file))?.[index];
    if (breakpoint && !breakpoint.verified) this.verify(breakpoint, line, column ?? 1);
  }

  isUserBreakpoint(v8Id: string): boolean {
    return this.byV8Id.has(v8Id);
  }

  byLogpointUrl(url: string): UserBreakpoint | undefined {
    if (!url.startsWith(LOGPOINT_URL_PREFIX)) return undefined;
    const id = Number(url.slice(LOGPOINT_URL_PREFIX.length));
    return this.all().find((breakpoint) => breakpoint.id === id);
  }

  /** Debugger.breakpointResolved: a breakpoint set by URL found its script. */
  resolved(v8Id: string, scriptId: string, lineNumber: number, columnNumber: number | undefined): void {
    const breakpoint = this.byV8Id.get(v8Id);
    if (!breakpoint || breakpoint.verified) return;
    const original = this.sources.toOriginal(scriptId, lineNumber, columnNumber);
    if (!original?.path || normalise(original.path) !== normalise(breakpoint.file)) return;
    this.verify(breakpoint, original.line, original.column);
  }

  toDap(breakpoint: UserBreakpoint): DebugProtocol.Breakpoint {
    return {
      id: breakpoint.id,
      verified: breakpoint.verified,
      line: breakpoint.actualLine ?? breakpoint.line,
      ...(breakpoint.actualColumn !== undefined ? { column: breakpoint.actualColumn } : {}),
      source: { name: path.basename(breakpoint.file), path: breakpoint.file },
      ...(breakpoint.message ? { message: breakpoint.message } : {}),
    };
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work);
    this.turn = result.catch(() => {});
    return result;
  }

  private create(file: string, spec: DebugProtocol.SourceBreakpoint): UserBreakpoint {
    let hitCondition: ((hits: number) => boolean) | undefined;
    let message: string | undefined;
    if (spec.hitCondition?.trim()) {
      hitCondition = parseHitCondition(spec.hitCondition);
      if (!hitCondition)
        message = `invalid hit count "${spec.hitCondition}": use a number (stop on that hit), ">= n", "> n", "< n", "<= n", "== n" or "% n" (every n-th hit)`;
    }
    return {
      id: this.nextId++,
      file: path.resolve(file),
      line: spec.line,
      column: spec.column,
      condition: spec.condition?.trim() || undefined,
      hitCondition,
      logMessage: spec.logMessage || undefined,
      invalid: message !== undefined,
      hits: 0,
      verified: false,
      actualLine: undefined,
      actualColumn: undefined,
      message,
      v8Ids: new Set(),
      scripts: new Set(),
    };
  }

  private async applyEverywhere(breakpoint: UserBreakpoint, cdp: CdpSession): Promise<void> {
    if (breakpoint.invalid) return;
    const scripts = this.sources.scriptsOf(breakpoint.file);
    if (scripts.length > 0) {
      await Promise.all(scripts.map((script) => this.apply(breakpoint, script, cdp)));
    } else if (PLAIN_JS.has(path.extname(breakpoint.file))) {
      await this.setV8(breakpoint, cdp, {
        url: fileUrl(breakpoint.file),
        lineNumber: breakpoint.line - 1,
        ...(breakpoint.column ? { columnNumber: breakpoint.column - 1 } : {}),
      });
    }
    if (!breakpoint.verified && !breakpoint.message) breakpoint.message = "not loaded yet: set when the file loads";
  }

  private async apply(breakpoint: UserBreakpoint, script: Script, cdp: CdpSession): Promise<void> {
    if (breakpoint.invalid || breakpoint.scripts.has(script.scriptId)) return;
    breakpoint.scripts.add(script.scriptId);
    const generated = this.sources.toGenerated(script, breakpoint.file, breakpoint.line, breakpoint.column);
    if (!generated) {
      breakpoint.message = "no code on or after this line";
      this.changed(breakpoint);
      return;
    }
    const location = await this.setV8(breakpoint, cdp, { url: script.url, ...generated });
    if (!location) return;
    const original = this.sources.toOriginal(location.scriptId, location.lineNumber, location.columnNumber);
    if (original) this.verify(breakpoint, original.line, original.column);
  }

  private async setV8(
    breakpoint: UserBreakpoint,
    cdp: CdpSession,
    where: { url: string; lineNumber: number; columnNumber?: number },
  ): Promise<{ scriptId: string; lineNumber: number; columnNumber?: number } | undefined> {
    try {
      const result = await cdp.send("Debugger.setBreakpointByUrl", { ...where, condition: v8Condition(breakpoint) });
      breakpoint.v8Ids.add(result.breakpointId);
      this.byV8Id.set(result.breakpointId, breakpoint);
      return result.locations[0];
    } catch (error) {
      breakpoint.message = `could not be set: ${(error as Error).message}`;
      this.changed(breakpoint);
      return undefined;
    }
  }

  private verify(breakpoint: UserBreakpoint, line: number, column: number): void {
    breakpoint.verified = true;
    breakpoint.actualLine = line;
    breakpoint.actualColumn = column;
    breakpoint.message = undefined;
    this.changed(breakpoint);
  }

  private async remove(breakpoint: UserBreakpoint, cdp: CdpSession | undefined): Promise<void> {
    for (const id of breakpoint.v8Ids) {
      this.byV8Id.delete(id);
      await cdp?.send("Debugger.removeBreakpoint", { breakpointId: id }).catch(() => {});
    }
  }
}

/** "5" and "== 5": that hit; ">= 5", "> 5", "< 5", "<= 5"; "% 5": every fifth. */
export function parseHitCondition(text: string): ((hits: number) => boolean) | undefined {
  const match = /^\s*(==|>=|<=|>|<|%)?\s*(\d+)\s*$/.exec(text);
  if (!match) return undefined;
  const n = Number(match[2]);
  switch (match[1]) {
    case ">=":
      return (hits) => hits >= n;
    case ">":
      return (hits) => hits > n;
    case "<":
      return (hits) => hits < n;
    case "<=":
      return (hits) => hits <= n;
    case "%":
      return (hits) => n > 0 && hits % n === 0;
    default:
      return (hits) => hits === n;
  }
}

/**
 * A logpoint's message `x is {x}` becomes a template literal logged from the breakpoint's
 * condition, which then answers false so the program never stops there.
 */
function v8Condition(breakpoint: UserBreakpoint): string | undefined {
  if (!breakpoint.logMessage) return breakpoint.condition;
  const literal = (text: string) => text.replace(/[\\`]|\$\{/g, (special) => `\\${special}`);
  const template = breakpoint.logMessage
    .split(/\{([^{}]+)\}/)
    .map((part, index) => (index % 2 === 0 ? literal(part) : `\${${part}}`))
    .join("");
  const log = `(console.log(\`${template}\`), false)`;
  const expression = breakpoint.condition ? `(${breakpoint.condition}) && ${log}` : log;
  return `${expression}\n//# sourceURL=${LOGPOINT_URL_PREFIX}${breakpoint.id}`;
}
