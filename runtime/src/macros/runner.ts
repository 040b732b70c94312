// The macro runner: a short-lived process that imports macro modules with rt's loader (so they
// may be TypeScript and import other modules), calls the requested exports with constant
// arguments, awaits the results and answers with them as JSON. A process of its own keeps a
// macro's side effects (globals, timers, open handles) out of the program and the bundler.
import { readFileSync, writeSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { prepareRuntime } from "../register/prepare.js";
import { ProgramError } from "../errors.js";
import { displayPath } from "../text.js";
import type { MacroRequest, MacroResult } from "./protocol.js";

async function main(): Promise<void> {
  const request = JSON.parse(readFileSync(0, "utf8")) as MacroRequest;
  process.chdir(request.cwd);
  prepareRuntime({ values: request.values, args: [], cacheRoot: request.cacheRoot }, () => request.calls[0]!.module);
  const modules = new Map<string, Promise<Record<string, unknown>>>();
  const results: MacroResult[] = [];
  for (const call of request.calls) {
    let module = modules.get(call.module);
    if (!module) modules.set(call.module, (module = import(pathToFileURL(call.module).href) as Promise<Record<string, unknown>>));
    results.push(await callMacro(call, module));
  }
  writeSync(3, JSON.stringify({ results }));
  // Whatever a macro left running (timers, sockets) must not keep the build waiting.
  process.exit(0);
}

async function callMacro(call: MacroRequest["calls"][number], module: Promise<Record<string, unknown>>): Promise<MacroResult> {
  const name = `${call.exportName}()`;
  let args: unknown[];
  try {
    const vm = require("node:vm") as typeof import("node:vm");
    // An empty context: any variable in the arguments is a ReferenceError, so only constants pass.
    args = vm.runInNewContext(`[${call.args}\n]`, Object.create(null) as object, { timeout: 1000 }) as unknown[];
  } catch (error) {
    return { error: `the arguments of macro ${name} must be constants (literals, arrays, objects): ${(error as Error).message}` };
  }
  try {
    const exports = await module;
    const fn = exports[call.exportName];
    if (typeof fn !== "function") return { error: `${displayPath(call.module)} has no function export "${call.exportName}" to call as a macro` };
    const value: unknown = await (fn as (...args: unknown[]) => unknown)(...args);
    const problem = unserialisable(value, "the result");
    if (problem)
      return { error: `macro ${name} returned ${problem}, which is not JSON-serialisable: return null, booleans, numbers, strings, arrays and plain objects` };
    return { code: value === undefined ? "undefined" : JSON.stringify(value) };
  } catch (error) {
    // A macro module (or a file it imports) that does not compile, or uses macros that fail.
    if (error instanceof ProgramError) return { failed: error.display };
    return { error: `macro ${name} threw ${describeError(error)}${throwSite(error, call.module)}` };
  }
}

/** What makes `value` not JSON: the type and where it is, or undefined when it is fine. */
function unserialisable(value: unknown, at: string): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "undefined":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `${value} (a non-finite number) as ${at}`;
    case "object": {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const problem = unserialisable(value[i], `${at}[${i}]`);
          if (problem) return problem;
        }
        return undefined;
      }
      const proto = Object.getPrototypeOf(value) as object | null;
      if (proto !== Object.prototype && proto !== null) {
        return `${value instanceof Promise ? "a Promise" : `a ${(value as object).constructor?.name ?? "non-plain object"}`} as ${at}`;
      }
      for (const [key, item] of Object.entries(value)) {
        const problem = unserialisable(item, `${at}.${key}`);
        if (problem) return problem;
      }
      return undefined;
    }
    default:
      return `a ${typeof value} as ${at}`;
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** ` (at macros.ts:4:9)`: the macro module's frame (original position), else the first file frame. */
function throwSite(error: unknown, module: string): string {
  const stack = error instanceof Error ? String(error.stack) : "";
  const frames = [...stack.matchAll(/^\s+at (?:.*\()?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?$/gm)];
  const frame = frames.find((match) => match[1] === module || match[1] === pathToFileURL(module).href) ?? frames[0];
  return frame ? ` (at ${displayPath(frame[1]!.replace(/^file:\/\//, ""))}:${frame[2]}:${frame[3]})` : "";
}

void main();
