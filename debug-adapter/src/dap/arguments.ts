// A request's arguments checked before it is handled: a client's mistake (a launch with
// `program: 42`, setBreakpoints without arguments) gets an error answer that names the field and
// what it must be, instead of an internal error or a stack from inside the adapter. launch and
// attach are checked against the attribute table (configuration.ts); the other requests against
// the fields DAP requires.
// Covered by: debug-adapter/test/protocol.test.mjs.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { ATTACH_ATTRIBUTES, type Attribute, LAUNCH_ATTRIBUTES } from "../configuration.js";

type Kind = "number" | "string" | "object" | "string[]";

/** The fields each request must have (DAP's required arguments). */
const REQUIRED: Readonly<Record<string, Readonly<Record<string, Kind>>>> = {
  setBreakpoints: { source: "object" },
  setExceptionBreakpoints: { filters: "string[]" },
  continue: { threadId: "number" },
  next: { threadId: "number" },
  stepIn: { threadId: "number" },
  stepOut: { threadId: "number" },
  pause: { threadId: "number" },
  stackTrace: { threadId: "number" },
  exceptionInfo: { threadId: "number" },
  scopes: { frameId: "number" },
  variables: { variablesReference: "number" },
  setVariable: { variablesReference: "number", name: "string", value: "string" },
  evaluate: { expression: "string" },
  completions: { text: "string", column: "number" },
};

/** What is wrong with a request's arguments, as one sentence for the user, or undefined. */
export function argumentsProblem(request: DebugProtocol.Request): string | undefined {
  const { command } = request;
  const args: unknown = request.arguments;
  const table = command === "launch" ? LAUNCH_ATTRIBUTES : command === "attach" ? ATTACH_ATTRIBUTES : undefined;
  const required = REQUIRED[command];
  if (args === undefined && !table && !required) return undefined;
  if (args === undefined)
    return `${command} needs arguments: an object with ${
      Object.keys(required ?? {})
        .map((field) => `"${field}"`)
        .join(", ") || "its settings"
    }`;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return `${command}: the arguments must be an object, not ${describe(args)}`;
  const record = args as Record<string, unknown>;
  if (command === "initialize" && record.pathFormat !== undefined && record.pathFormat !== "path")
    return `initialize: pathFormat ${JSON.stringify(record.pathFormat)} is not supported: rt's debug adapter takes file paths ("path", the default)`;
  if (table) return attributeProblem(command, table, record);
  for (const [field, kind] of Object.entries(required ?? {})) {
    if (record[field] === undefined) return `${command} needs "${field}" (${article(kind)})`;
    if (!isKind(record[field], kind)) return `${command}: "${field}" must be ${article(kind)}, not ${describe(record[field])}`;
  }
  if (command === "setBreakpoints") return breakpointsProblem(record);
  return undefined;
}

function attributeProblem(command: string, table: Readonly<Record<string, Attribute>>, args: Record<string, unknown>): string | undefined {
  for (const [name, attribute] of Object.entries(table)) {
    const value = args[name];
    if (value === undefined) continue;
    const types = typeof attribute.type === "string" ? [attribute.type] : attribute.type;
    const expected = types.map((type) => expectedText(type, attribute)).join(" or ");
    if (!types.some((type) => matchesType(value, type, attribute))) return `${command}: "${name}" must be ${expected}, not ${describeEntry(value)}`;
    if (typeof value === "string" && attribute.enum && !attribute.enum.includes(value))
      return `${command}: "${name}" must be one of ${attribute.enum.map((option) => JSON.stringify(option)).join(", ")}, not ${JSON.stringify(value)}`;
  }
  return undefined;
}

function expectedText(type: string, attribute: Attribute): string {
  if (type === "array" && attribute.items) return `an array of ${attribute.items.type}s`;
  const values = attribute.additionalProperties?.type;
  if (type === "object" && values) return `an object of ${typeof values === "string" ? values : values.join(" or ")} values`;
  return article(type);
}

function breakpointsProblem(args: Record<string, unknown>): string | undefined {
  const { breakpoints, lines } = args;
  if (
    breakpoints !== undefined &&
    (!Array.isArray(breakpoints) || !breakpoints.every((b) => typeof b === "object" && b !== null && typeof b.line === "number"))
  )
    return 'setBreakpoints: "breakpoints" must be an array of { "line": number, ... }';
  if (lines !== undefined && (!Array.isArray(lines) || !lines.every((line) => typeof line === "number")))
    return 'setBreakpoints: "lines" must be an array of numbers';
  if (typeof (args.source as { path?: unknown }).path !== "string") return 'setBreakpoints: "source" needs "path" (the file\'s path)';
  return undefined;
}

function matchesType(value: unknown, type: string, attribute: Attribute): boolean {
  switch (type) {
    case "array":
      return Array.isArray(value) && value.every((item) => !attribute.items || typeof item === attribute.items.type);
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
      const allowed = attribute.additionalProperties?.type;
      if (!allowed) return true;
      return Object.values(value).every((item) => (typeof allowed === "string" ? [allowed] : allowed).includes(item === null ? "null" : typeof item));
    }
    default:
      return typeof value === type;
  }
}

function isKind(value: unknown, kind: Kind): boolean {
  if (kind === "string[]") return Array.isArray(value) && value.every((item) => typeof item === "string");
  if (kind === "object") return typeof value === "object" && value !== null && !Array.isArray(value);
  return typeof value === kind;
}

function article(kind: string): string {
  if (kind === "string[]") return "an array of strings";
  return `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? JSON.stringify(value) : typeof value === "object" ? "an object" : String(value);
}

/** An object by its first entry whose value is not a string (env's values must be). */
function describeEntry(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return describe(value);
  const entry = Object.entries(value).find(([, item]) => typeof item !== "string" && item !== null);
  return entry ? `an object with "${entry[0]}": ${describe(entry[1])}` : "an object";
}
