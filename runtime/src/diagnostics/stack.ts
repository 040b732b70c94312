// V8-format stack traces (`Error: msg\n    at fn (file:line:col)`) with original positions for
// transpiled files, and the V8 stack-trace API for programs: a prepareStackTrace a program sets
// receives call sites that report original positions, and its return value becomes the stack.
// rt's own frames (its launcher and bundle) are left out: they are not the user's code.
import * as path from "node:path";
import { OriginalCallSite, mapFrameText } from "./call-sites.js";
import { remappings } from "./source-maps.js";

type PrepareStackTrace = (error: Error, callSites: NodeJS.CallSite[]) => unknown;

const RT_DIRECTORIES = [__dirname, path.join(__dirname, "..", "bin")].map((dir) => dir + path.sep);

function isRtFrame(site: NodeJS.CallSite): boolean {
  const file = site.getFileName();
  return !!file && RT_DIRECTORIES.some((dir) => file.startsWith(dir));
}

/** The same from V8's frame text (rt's own scripts are CommonJS: named by plain paths). */
function isRtFrameText(frame: string): boolean {
  return frame.includes(RT_DIRECTORIES[0]!) || frame.includes(RT_DIRECTORIES[1]!);
}

/**
 * Frame texts as V8 prints them → as rt prints them ("" for rt's own frames). Programs format
 * the same frames over and over; one lookup per frame keeps a formatted stack about as cheap
 * as Node's own.
 */
const mappedFrames = new Map<string, string>();
const MAPPED_FRAMES_LIMIT = 10_000;
let mappedAt = remappings;

/** The stack text V8 would print, with original positions. */
export function formatStack(error: unknown, callSites: readonly NodeJS.CallSite[]): string {
  let text = errorHeader(error);
  if (mappedAt !== remappings) {
    mappedFrames.clear();
    mappedAt = remappings;
  }
  for (const site of callSites) {
    const frame = String(site);
    let mapped = mappedFrames.get(frame);
    if (mapped === undefined) {
      mapped = isRtFrameText(frame) ? "" : mapFrameText(frame);
      if (mappedFrames.size >= MAPPED_FRAMES_LIMIT) mappedFrames.clear();
      mappedFrames.set(frame, mapped);
    }
    if (mapped) text += `\n    at ${mapped}`;
  }
  return text;
}

function errorHeader(error: unknown): string {
  try {
    const header = Error.prototype.toString.call(error);
    // Node's own errors name their code in the header (`TypeError [ERR_INVALID_ARG_TYPE]: …`)
    // through their toString, as Node's stacks show them.
    const { code, toString: describe } = error as { code?: unknown; toString?: unknown };
    if (typeof code === "string" && typeof describe === "function" && describe !== Error.prototype.toString) {
      const own = String(describe.call(error));
      if (own.includes(` [${code}]: `)) return own;
    }
    return header;
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
        const sites = callSites.filter((site) => !isRtFrame(site));
        try {
          return formatter(
            error,
            sites.map((site) => new OriginalCallSite(site)),
          );
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
