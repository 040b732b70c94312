// What the user reads and changes while the program is paused: the stack in original positions,
// scopes (with `this` and `$returnValue`), evaluation for hover, watch and the REPL, completions,
// setVariable, the exception stopped on, and the text of sources that have no file.
// Covered by: debug-adapter/test/launch.test.mjs ("stack trace, scopes and variables (golden) …",
// "stepping, evaluate for hover/watch/repl, completions, setVariable and $returnValue …", "…
// exception breakpoints: all, then uncaught only" (exceptionInfo), "a frame without a file …"
// (source text)), targets.test.mjs ("requests that make no sense …"), workers.test.mjs (a worker's
// stack, scopes and evaluate).
import * as path from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { Protocol } from "devtools-protocol";
import type { CallFrame, RemoteObject, ThreadState } from "./thread-state.js";

export class Inspection {
  constructor(private readonly thread: ThreadState) {}

  stackTrace(startFrame = 0, levels = 0): { stackFrames: DebugProtocol.StackFrame[]; totalFrames: number } {
    const paused = this.thread.paused;
    if (!paused) return { stackFrames: [], totalFrames: 0 };
    const all = [...paused.frames.entries()];
    const wanted = levels > 0 ? all.slice(startFrame, startFrame + levels) : all.slice(startFrame);
    return { stackFrames: wanted.map(([id, frame]) => this.stackFrame(id, frame)), totalFrames: all.length };
  }

  scopes(frameId: number): DebugProtocol.Scope[] {
    const frame = this.thread.frame(frameId);
    const top = this.thread.paused!.event.callFrames[0] === frame;
    return frame.scopeChain.map((scope, scopeNumber) => {
      const extras: { name: string; value: RemoteObject }[] = [];
      if (scope.type === "local") {
        const returned = frame.returnValue ?? (top ? this.thread.lastReturnValue : undefined);
        if (returned) extras.push({ name: "$returnValue", value: returned });
        if (frame.this.type !== "undefined") extras.push({ name: "this", value: frame.this });
      }
      const dapScope: DebugProtocol.Scope = {
        name: scopeName(scope),
        variablesReference: this.thread.variables.scope(scope.object, frame.callFrameId, scopeNumber, extras),
        expensive: scope.type === "global",
      };
      if (scope.type === "local") dapScope.presentationHint = "locals";
      const start =
        scope.startLocation && this.thread.sources.toOriginal(scope.startLocation.scriptId, scope.startLocation.lineNumber, scope.startLocation.columnNumber);
      if (start?.path) {
        dapScope.source = { name: path.basename(start.path), path: start.path };
        dapScope.line = start.line;
      }
      return dapScope;
    });
  }

  async evaluate(expression: string, frameId: number | undefined, context: string | undefined): Promise<DebugProtocol.EvaluateResponse["body"]> {
    const cdp = this.thread.requireConnection();
    const { paused, variables } = this.thread;
    const persistent = context === "repl";
    if (expression.trim() === "$returnValue" && paused) {
      const returned = paused.event.callFrames[0]?.returnValue ?? this.thread.lastReturnValue;
      if (returned) return asEvaluateBody(variables.variable("$returnValue", returned, "$returnValue", persistent));
    }
    const frame = frameId !== undefined && paused ? this.thread.frame(frameId) : undefined;
    const common = { expression, objectGroup: "dap", generatePreview: true, includeCommandLineAPI: context === "repl", throwOnSideEffect: context === "hover" };
    const { result, exceptionDetails } = frame
      ? await cdp.send("Debugger.evaluateOnCallFrame", { ...common, callFrameId: frame.callFrameId })
      : await cdp.send("Runtime.evaluate", { ...common, replMode: context === "repl", awaitPromise: context === "repl" });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description?.split("\n")[0] ?? exceptionDetails.text);
    return asEvaluateBody(variables.variable("", result, expression, persistent));
  }

  async completions(text: string, column: number, frameId: number | undefined): Promise<DebugProtocol.CompletionItem[]> {
    const cdp = this.thread.requireConnection();
    const before = text.slice(0, Math.max(0, column - 1));
    const match = /(?:([\w$\].)]+(?:\([^()]*\))?)\.)?([\w$]*)$/.exec(before)!;
    const [, objectExpression, prefix = ""] = match;
    const frame = frameId !== undefined && this.thread.paused ? this.thread.frame(frameId) : undefined;
    const names = new Map<string, string>();
    const namesOf = async (objectId: string, type: string) => {
      const { result } = await cdp.send("Runtime.callFunctionOn", {
        objectId,
        functionDeclaration:
          "function () { const names = new Set(); for (let o = this; o != null; o = Object.getPrototypeOf(o)) for (const n of Object.getOwnPropertyNames(o)) names.add(n); return [...names].filter(n => !/^\\d+$/.test(n)); }",
        returnByValue: true,
      });
      for (const name of (result.value as string[]) ?? []) if (!names.has(name)) names.set(name, type);
    };
    if (objectExpression) {
      const target = await this.valueOf(objectExpression, frameId).catch(() => undefined);
      if (target?.objectId) await namesOf(target.objectId, "property");
      else if (target && target.type !== "undefined" && target.subtype !== "null") {
        const boxed = await cdp.send("Runtime.evaluate", { expression: `Object(${JSON.stringify(target.value)})` });
        if (boxed.result.objectId) await namesOf(boxed.result.objectId, "property");
      }
    } else {
      for (const scope of frame?.scopeChain ?? []) {
        if (scope.type === "global" || !scope.object.objectId) continue;
        const { result } = await cdp.send("Runtime.getProperties", { objectId: scope.object.objectId, ownProperties: true });
        for (const property of result) if (!names.has(property.name)) names.set(property.name, "variable");
      }
      const lexical = await cdp.send("Runtime.globalLexicalScopeNames", {}).catch(() => ({ names: [] as string[] }));
      for (const name of lexical.names) if (!names.has(name)) names.set(name, "variable");
      const global = await cdp.send("Runtime.evaluate", { expression: "globalThis" });
      if (global.result.objectId) await namesOf(global.result.objectId, "property");
    }
    return [...names]
      .filter(([name]) => name.startsWith(prefix))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([label, type]) => ({ label, type: type as DebugProtocol.CompletionItemType, start: column - 1 - prefix.length, length: prefix.length }));
  }

  exceptionInfo(): DebugProtocol.ExceptionInfoResponse["body"] {
    const event = this.thread.paused?.event;
    if (!event || (event.reason !== "exception" && event.reason !== "promiseRejection")) throw new Error("the program is not stopped on an exception");
    const exception = event.data as RemoteObject | undefined;
    const description = exception?.description ?? (exception ? String(exception.value) : "exception");
    return {
      exceptionId: exception?.className ?? "Error",
      description: description.split("\n")[0],
      breakMode: event.data?.uncaught ? "unhandled" : "always",
      details: { message: description.split("\n")[0], stackTrace: description },
    };
  }

  async sourceText(reference: number): Promise<string> {
    const script = this.thread.sources.byReferenceId(reference);
    if (!script) throw new Error("this source is gone: the program that had it ended");
    return (await this.thread.requireConnection().send("Debugger.getScriptSource", { scriptId: script.scriptId })).scriptSource;
  }

  async setVariable(reference: number, name: string, expression: string, frameId: number | undefined): Promise<DebugProtocol.Variable> {
    const value = await this.valueOf(expression, frameId);
    return this.thread.variables.set(reference, name, value);
  }

  /** The value an expression typed in setVariable / setExpression stands for, in the frame. */
  private async valueOf(expression: string, frameId: number | undefined): Promise<RemoteObject> {
    const cdp = this.thread.requireConnection();
    const paused = this.thread.paused;
    const frame = frameId !== undefined && paused ? this.thread.frame(frameId) : paused?.event.callFrames[0];
    const { result, exceptionDetails } = frame
      ? await cdp.send("Debugger.evaluateOnCallFrame", { expression, callFrameId: frame.callFrameId })
      : await cdp.send("Runtime.evaluate", { expression });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description?.split("\n")[0] ?? exceptionDetails.text);
    return result;
  }

  private stackFrame(id: number, frame: CallFrame): DebugProtocol.StackFrame {
    const original = this.thread.sources.toOriginal(frame.location.scriptId, frame.location.lineNumber, frame.location.columnNumber);
    const stackFrame: DebugProtocol.StackFrame = {
      id,
      name: frame.functionName || "<anonymous>",
      line: original?.line ?? frame.location.lineNumber + 1,
      column: original?.column ?? (frame.location.columnNumber ?? 0) + 1,
    };
    if (original) stackFrame.source = this.thread.dapSource(original.script, original.path);
    // (CallFrame.url is empty in current V8: the script knows its URL.)
    if (this.thread.isInternalFrame(frame)) stackFrame.presentationHint = "subtle";
    return stackFrame;
  }
}

function scopeName(scope: Protocol.Debugger.Scope): string {
  const names: Record<string, string> = {
    local: "Local",
    closure: "Closure",
    module: "Module",
    global: "Global",
    block: "Block",
    script: "Script",
    catch: "Catch",
    with: "With",
    eval: "Eval",
  };
  const base = names[scope.type] ?? scope.type;
  return scope.type === "closure" && scope.name ? `${base} (${scope.name})` : base;
}

function asEvaluateBody(variable: DebugProtocol.Variable): DebugProtocol.EvaluateResponse["body"] {
  return {
    result: variable.value,
    type: variable.type,
    variablesReference: variable.variablesReference,
    ...(variable.indexedVariables ? { indexedVariables: variable.indexedVariables } : {}),
  };
}
