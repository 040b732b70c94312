// console.* calls as Debug Console lines: the text as Node would print it for simple values
// (format specifiers included), objects expandable, and the caller's original source position
// (a logpoint's output at its breakpoint); uncaught errors too, when the program's stderr is not
// the adapter's to show.
// Covered by: debug-adapter/test/launch.test.mjs ("output: console.* with source locations and
// expandable objects …", "output: console.group, console.assert and console.trace …",
// "conditional and hit-count breakpoints, logpoints with the breakpoint's location"),
// targets.test.mjs ("by port …; console output logged before attaching is not lost", "a plain
// `node --inspect` program …: its uncaught error reaches the Debug Console …"), workers.test.mjs
// (a worker's console output).
import * as path from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { Protocol } from "devtools-protocol";
import type { RemoteObject, ThreadState } from "./thread-state.js";
import { render } from "./variables.js";

/** Console calls and uncaught errors of one thread, as `output` events. */
export class ConsoleOutput {
  constructor(private readonly thread: ThreadState) {}

  consoleCalled(event: Protocol.Runtime.ConsoleAPICalledEvent): void {
    if (event.type === "clear" || this.thread.options.console === false) return;
    const group =
      event.type === "startGroup" ? "start" : event.type === "startGroupCollapsed" ? "startCollapsed" : event.type === "endGroup" ? "end" : undefined;
    let output = formatConsoleArgs(event.args);
    if (event.type === "assert") output = `Assertion failed${output ? `: ${output}` : ""}`;
    if (event.type === "trace") output = `Trace${output ? `: ${output}` : ""}\n${this.stackText(event.stackTrace)}`;
    const body: DebugProtocol.OutputEvent["body"] = { category: consoleCategory(event.type), output: `${output}\n` };
    if (group) body.group = group;
    const expandable = event.args.some((arg) => arg.objectId && (arg.type === "object" || arg.type === "function") && arg.subtype !== "null");
    if (expandable)
      body.variablesReference = this.thread.variables.values(
        event.args.map((value, index) => ({ name: String(index), value })),
        true,
      );
    Object.assign(body, this.callerLocation(event.stackTrace));
    this.thread.events.output(body);
  }

  /** Uncaught errors: shown from the debugger only when this adapter doesn't show the program's stderr. */
  uncaught(event: Protocol.Runtime.ExceptionThrownEvent): void {
    if (this.thread.options.ownsStderr) return;
    const details = event.exceptionDetails;
    this.thread.events.output({
      category: "stderr",
      output: `Uncaught ${details.exception?.description ?? details.text}\n`,
      ...this.callerLocation(details.stackTrace),
    });
  }

  private callerLocation(stack: Protocol.Runtime.StackTrace | undefined): Partial<DebugProtocol.OutputEvent["body"]> {
    const top = stack?.callFrames[0];
    if (!top) return {};
    const logpoint = this.thread.breakpoints.byLogpointUrl(top.url);
    if (logpoint)
      return {
        source: { name: path.basename(logpoint.file), path: logpoint.file },
        line: logpoint.actualLine ?? logpoint.line,
        column: logpoint.actualColumn ?? 1,
      };
    const original = this.thread.sources.toOriginal(top.scriptId, top.lineNumber, top.columnNumber);
    if (!original) return {};
    return { source: this.thread.dapSource(original.script, original.path), line: original.line, column: original.column };
  }

  private stackText(stack: Protocol.Runtime.StackTrace | undefined): string {
    return (stack?.callFrames ?? [])
      .map((frame) => {
        const original = this.thread.sources.toOriginal(frame.scriptId, frame.lineNumber, frame.columnNumber);
        const where = original?.path
          ? `${original.path}:${original.line}:${original.column}`
          : `${frame.url}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
        return `    at ${frame.functionName || "<anonymous>"} (${where})`;
      })
      .join("\n");
  }
}

/** The text of a console call's arguments, joined as console.log joins them. */
function formatConsoleArgs(args: readonly RemoteObject[]): string {
  const [first, ...rest] = args;
  if (!first) return "";
  const parts: string[] = [];
  if (first.type === "string" && typeof first.value === "string" && first.value.includes("%") && rest.length > 0) {
    const remaining = [...rest];
    const text = first.value.replace(/%([sdifjoOc%])/g, (whole, specifier: string) => {
      if (specifier === "%") return "%";
      if (remaining.length === 0) return whole;
      const value = remaining.shift()!;
      switch (specifier) {
        case "c":
          return "";
        case "d":
        case "i":
          return value.type === "number" ? String(Math.trunc(Number(value.value))) : "NaN";
        case "f":
          return value.type === "number" ? String(value.value) : "NaN";
        case "s":
          return asText(value);
        default:
          return render(value);
      }
    });
    parts.push(text, ...remaining.map(asText));
  } else {
    parts.push(...args.map(asText));
  }
  return parts.join(" ");
}

/** Strings unquoted at the top level, as console.log prints them. */
function asText(object: RemoteObject): string {
  return object.type === "string" ? String(object.value) : render(object);
}

/** Which Debug Console category a console method writes to, as Node writes stdout or stderr. */
function consoleCategory(type: Protocol.Runtime.ConsoleAPICalledEvent["type"]): "stdout" | "stderr" {
  return type === "error" || type === "warning" || type === "assert" || type === "trace" ? "stderr" : "stdout";
}
