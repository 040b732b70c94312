// V8-format stack traces (`Error: msg\n    at fn (file:line:col)`) with original positions for
// transpiled files, and the V8 stack-trace API for programs: a prepareStackTrace a program sets
// receives call sites that report original positions, and its return value becomes the stack.
// rt's own frames (its launcher and bundle) are left out: they are not the user's code.
import * as path from "node:path";
import { OriginalCallSite, frameText } from "./call-sites.js";

type PrepareStackTrace = (error: Error, callSites: NodeJS.CallSite[]) => unknown;

const RT_DIRECTORIES = [__dirname, path.join(__dirname, "..", "bin")].map((dir) => dir + path.sep);

function isRtFrame(site: NodeJS.CallSite): boolean {
  const file = site.getFileName();
  return file !== null && file !== undefined && RT_DIRECTORIES.some((dir) => file.startsWith(dir));
}

/** The stack text V8 would print, with original positions. */
export function formatStack(error: unknown, callSites: readonly NodeJS.CallSite[]): string {
  let text = errorHeader(error);
  for (const site of callSites) if (!isRtFrame(site)) text += `\n    at ${frameText(site)}`;
  return text;
}

function errorHeader(error: unknown): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return "Error";
  }
}

/**
 * Makes `Error.prepareStackTrace` an accessor: unset, rt's formatter runs; set by the program,
 * its function runs with original-position call sites (and if it throws, the error still gets
 * rt's stack). Reading the property back gives a function that behaves like the one set, and
 * setting that back restores it.
 */
export function installStackTraces(): void {
  let programFormatter: PrepareStackTrace | undefined;
  const wrappers = new Map<PrepareStackTrace, PrepareStackTrace>();
  const programFormatterOf = new WeakMap<PrepareStackTrace, PrepareStackTrace>();

  const wrap = (formatter: PrepareStackTrace): PrepareStackTrace => {
    let wrapper = wrappers.get(formatter);
    if (!wrapper) {
      wrapper = (error, callSites) => {
        const sites = callSites.filter((site) => !isRtFrame(site)).map((site) => new OriginalCallSite(site));
        try {
          return formatter(error, sites);
        } catch {
          return formatStack(error, sites);
        }
      };
      wrappers.clear(); // one program formatter at a time; don't keep old ones alive
      wrappers.set(formatter, wrapper);
      programFormatterOf.set(wrapper, formatter);
    }
    return wrapper;
  };

  Object.defineProperty(Error, "prepareStackTrace", {
    configurable: true,
    enumerable: false,
    get: () => (programFormatter ? wrap(programFormatter) : formatStack),
    set: (value: unknown) => {
      if (typeof value !== "function" || value === formatStack) programFormatter = undefined;
      else programFormatter = programFormatterOf.get(value as PrepareStackTrace) ?? (value as PrepareStackTrace);
    },
  });
}
