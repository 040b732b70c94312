// console.* calls as Debug Console lines: the text as Node would print it for simple values
// (format specifiers included), objects expandable, and the caller's original source position.
import type { Protocol } from "devtools-protocol";
import { render } from "./variables.js";

type RemoteObject = Protocol.Runtime.RemoteObject;

/** The text of a console call's arguments, joined as console.log joins them. */
export function formatConsoleArgs(args: readonly RemoteObject[]): string {
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
export function consoleCategory(type: Protocol.Runtime.ConsoleAPICalledEvent["type"]): "stdout" | "stderr" {
  return type === "error" || type === "warning" || type === "assert" || type === "trace" ? "stderr" : "stdout";
}
