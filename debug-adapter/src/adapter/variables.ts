// Variables: DAP's variablesReference handles for scopes, objects, array/map slices and lists of
// values (console arguments, a return value), rendered from V8's remote objects. Handles made
// while paused die at the next resume (V8 frees their objects); console handles live on.
// Covered by: debug-adapter/test/launch.test.mjs ("stack trace, scopes and variables (golden),
// paging …", "stepping, evaluate …, setVariable …", "output: console.* … expandable objects"),
// targets.test.mjs ("requests that make no sense: variables that are gone …").
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { Protocol } from "devtools-protocol";
import type { CdpSession } from "../cdp/connection.js";

type RemoteObject = Protocol.Runtime.RemoteObject;

type Container =
  | { readonly kind: "scope"; readonly object: RemoteObject; readonly callFrameId: string; readonly scopeNumber: number; readonly extras: readonly Named[] }
  | { readonly kind: "object"; readonly object: RemoteObject; readonly evaluateName: string | undefined }
  | { readonly kind: "values"; readonly values: readonly Named[] };

interface Named {
  readonly name: string;
  readonly value: RemoteObject;
}

/** Arrays, maps and sets longer than this are shown in pages (the client asks for slices). */
const PAGE_THRESHOLD = 100;
/** Slices never exceed this many items, whatever a client asks. */
const MAX_SLICE = 1000;

/** Within a thread's range of ids (see thread-state.ts), persistent handles are numbered from here. */
const PERSISTENT_OFFSET = 5_000_000;

export class Variables {
  private paused = new Map<number, Container>();
  private nextPaused: number;
  private readonly persistent = new Map<number, Container>();
  private nextPersistent: number;

  /** `base`: where this thread's handles are numbered from. */
  constructor(
    private readonly cdp: () => CdpSession | undefined,
    private readonly base = 0,
  ) {
    this.nextPaused = base + 1;
    this.nextPersistent = base + PERSISTENT_OFFSET;
  }

  /** The program resumed: the objects of the last pause are gone. */
  clearPaused(): void {
    this.paused = new Map();
    this.nextPaused = this.base + 1;
  }

  private containerOf(reference: number): Container | undefined {
    return (reference >= this.base + PERSISTENT_OFFSET ? this.persistent : this.paused).get(reference);
  }

  scope(object: RemoteObject, callFrameId: string, scopeNumber: number, extras: readonly Named[]): number {
    return this.add({ kind: "scope", object, callFrameId, scopeNumber, extras }, false);
  }

  /** A handle for console arguments (kept after the program resumes). */
  values(values: readonly Named[], persistent: boolean): number {
    return this.add({ kind: "values", values }, persistent);
  }

  /** A DAP variable (also the body of evaluate and setVariable answers) for a remote object. */
  variable(name: string, object: RemoteObject, evaluateName: string | undefined, persistent = false): DebugProtocol.Variable {
    const expandable = object.objectId !== undefined && (object.type === "object" || object.type === "function") && object.subtype !== "null";
    const variable: DebugProtocol.Variable = {
      name,
      value: render(object),
      type: object.subtype ?? object.type,
      variablesReference: expandable ? this.add({ kind: "object", object, evaluateName }, persistent) : 0,
      ...(evaluateName ? { evaluateName } : {}),
    };
    const size = collectionSize(object);
    if (expandable && size !== undefined && size > PAGE_THRESHOLD) variable.indexedVariables = size;
    if (object.type === "function") variable.presentationHint = { kind: "method" };
    return variable;
  }

  async list(reference: number, filter: "indexed" | "named" | undefined, start = 0, count = 0): Promise<DebugProtocol.Variable[]> {
    const container = this.containerOf(reference);
    if (!container) throw new Error("these variables are gone: the program ran on since they were shown");
    const persistent = reference >= this.base + PERSISTENT_OFFSET;
    if (container.kind === "values") return container.values.map(({ name, value }) => this.variable(name, value, undefined, persistent));
    const cdp = this.connection();
    const objectId = container.object.objectId!;
    const size = collectionSize(container.object);
    const paged = size !== undefined && size > PAGE_THRESHOLD;
    if (filter === "indexed" && size !== undefined) return this.slice(container, start, count || size, persistent);
    const { result, internalProperties = [] } = await cdp.send("Runtime.getProperties", { objectId, ownProperties: true, generatePreview: true });
    const variables: DebugProtocol.Variable[] = [];
    if (container.kind === "scope") for (const extra of container.extras) variables.push(this.variable(extra.name, extra.value, extra.name, persistent));
    for (const property of result) {
      if (paged && /^\d+$/.test(property.name)) continue;
      const value = property.value ?? (property.get ? { type: "undefined" as const, description: "(getter)" } : { type: "undefined" as const });
      const evaluateName = container.kind === "scope" ? property.name : childName(container.evaluateName, property.name);
      variables.push(
        this.variable(property.name, value.description === "(getter)" ? { ...value, unserializableValue: undefined } : value, evaluateName, persistent),
      );
    }
    for (const internal of internalProperties) {
      if (!internal.value || internal.name === "[[Scopes]]" || (paged && internal.name === "[[Entries]]")) continue;
      variables.push(this.variable(internal.name, internal.value, undefined, persistent));
    }
    return variables;
  }

  /** setVariable: in a scope through the debugger, on an object by assignment. */
  async set(reference: number, name: string, value: RemoteObject): Promise<DebugProtocol.Variable> {
    const container = this.containerOf(reference);
    if (!container || container.kind === "values") throw new Error("this variable can't be changed here");
    const cdp = this.connection();
    const argument = callArgument(value);
    if (container.kind === "scope") {
      await cdp.send("Debugger.setVariableValue", {
        scopeNumber: container.scopeNumber,
        variableName: name,
        newValue: argument,
        callFrameId: container.callFrameId,
      });
      return this.variable(name, value, name);
    }
    const { result, exceptionDetails } = await cdp.send("Runtime.callFunctionOn", {
      objectId: container.object.objectId!,
      functionDeclaration: "function (name, value) { this[name] = value; return this[name]; }",
      arguments: [{ value: name }, argument],
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return this.variable(name, result, childName(container.evaluateName, name));
  }

  private async slice(container: Container & { object: RemoteObject }, start: number, count: number, persistent: boolean): Promise<DebugProtocol.Variable[]> {
    const cdp = this.connection();
    const { result } = await cdp.send("Runtime.callFunctionOn", {
      objectId: container.object.objectId!,
      functionDeclaration: `function (start, count) {
        const out = { __proto__: null };
        if (this instanceof Map) { let i = 0; for (const [key, value] of this) { if (i >= start + count) break; if (i >= start) out[i] = { key, value }; i++; } }
        else if (this instanceof Set) { let i = 0; for (const value of this) { if (i >= start + count) break; if (i >= start) out[i] = value; i++; } }
        else { for (let i = start; i < Math.min(this.length, start + count); i++) out[i] = this[i]; }
        return out;
      }`,
      arguments: [{ value: start }, { value: Math.min(count, MAX_SLICE) }],
    });
    const { result: items } = await cdp.send("Runtime.getProperties", { objectId: result.objectId!, ownProperties: true, generatePreview: true });
    const evaluateName = container.kind === "object" ? container.evaluateName : undefined;
    const isMapOrSet = container.object.subtype === "map" || container.object.subtype === "set";
    return items
      .filter((item) => item.value && /^\d+$/.test(item.name))
      .map((item) => this.variable(item.name, item.value!, isMapOrSet ? undefined : childName(evaluateName, item.name), persistent));
  }

  private add(container: Container, persistent: boolean): number {
    if (persistent) {
      const id = this.nextPersistent++;
      this.persistent.set(id, container);
      return id;
    }
    const id = this.nextPaused++;
    this.paused.set(id, container);
    return id;
  }

  private connection(): CdpSession {
    const cdp = this.cdp();
    if (!cdp) throw new Error("the program is not connected");
    return cdp;
  }
}

function childName(parent: string | undefined, name: string): string | undefined {
  if (parent === undefined) return undefined;
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${parent}.${name}` : /^\d+$/.test(name) ? `${parent}[${name}]` : `${parent}[${JSON.stringify(name)}]`;
}

function collectionSize(object: RemoteObject): number | undefined {
  if (object.subtype !== "array" && object.subtype !== "typedarray" && object.subtype !== "map" && object.subtype !== "set") return undefined;
  const match = /\((\d+)\)/.exec(object.description ?? "");
  return match ? Number(match[1]) : undefined;
}

/** How a value reads in one line: strings quoted, objects by their description. */
export function render(object: RemoteObject): string {
  switch (object.type) {
    case "string":
      return JSON.stringify(object.value);
    case "undefined":
      return object.description ?? "undefined";
    case "number":
    case "bigint":
      return object.unserializableValue ?? object.description ?? String(object.value);
    case "boolean":
      return String(object.value);
    case "symbol":
      return object.description ?? "Symbol()";
    case "function":
      return `ƒ ${functionHeader(object.description ?? "")}`;
    default:
      if (object.subtype === "null") return "null";
      if ((object.subtype as string | undefined) === "internal#entry") return object.description ?? "entry";
      return object.preview ? renderPreview(object.preview, object.description ?? "") : (object.description ?? "Object");
  }
}

function functionHeader(source: string): string {
  const match = /^(?:async\s+)?(?:function\s*\*?\s*)?([\w$]*)\s*\(([^)]*)\)/.exec(source);
  return match ? `${match[1]}(${match[2]})` : source.split("\n")[0]!.slice(0, 60);
}

function renderPreview(preview: Protocol.Runtime.ObjectPreview, description: string): string {
  const items = (preview.entries ?? []).length
    ? preview.entries!.map((entry) => (entry.key ? `${renderPreviewValue(entry.key)} => ${renderPreviewValue(entry.value)}` : renderPreviewValue(entry.value)))
    : preview.properties.map((property) =>
        preview.subtype === "array" && /^\d+$/.test(property.name) ? previewValue(property) : `${property.name}: ${previewValue(property)}`,
      );
  const more = preview.overflow ? ", …" : "";
  if (preview.subtype === "array" || preview.subtype === "typedarray") return `${description} [${items.join(", ")}${more}]`;
  if (preview.subtype === "map" || preview.subtype === "set") return `${description} {${items.join(", ")}${more}}`;
  const prefix = description === "Object" ? "" : `${description} `;
  return `${prefix}{${items.join(", ")}${more}}`;
}

function renderPreviewValue(preview: Protocol.Runtime.ObjectPreview): string {
  return preview.description ?? preview.type;
}

function previewValue(property: Protocol.Runtime.PropertyPreview): string {
  if (property.type === "string") return JSON.stringify(property.value);
  if (property.type === "function") return "ƒ";
  return property.value ?? property.type;
}

/** A remote object as an argument of a call (by value or by reference). */
function callArgument(object: RemoteObject): Protocol.Runtime.CallArgument {
  if (object.objectId) return { objectId: object.objectId };
  if (object.unserializableValue) return { unserializableValue: object.unserializableValue };
  if (object.type === "undefined") return {};
  return { value: object.value };
}
