// The process flags Node can take after start: applied in-process before the program's first
// module, each only when given (nothing is loaded or patched for a flag that is absent).
import type { FlagValues } from "../flags/parse.js";
import { flagDefault } from "../flags/table.js";
import { handleRejections } from "./rejections.js";

export function applyRuntimeFlags(values: FlagValues): void {
  if (values["expose-gc"] === true) exposeGc();
  if (values["no-deprecation"] === true) process.noDeprecation = true;
  if (values["throw-deprecation"] === true) process.throwDeprecation = true;
  if (values["no-addons"] === true) refuseAddons();
  const depth = values["console-depth"];
  if (depth !== undefined && depth !== flagDefault("console-depth")) setConsoleDepth(depth);
  const rejections = values["unhandled-rejections"];
  // "throw" (the default) is what Node does without a handler.
  if (rejections !== undefined && rejections !== "throw") handleRejections(rejections);
}

/** V8 creates `gc` only for contexts made after the flag is set: take it from a fresh one. */
function exposeGc(): void {
  (require("node:v8") as typeof import("node:v8")).setFlagsFromString("--expose-gc");
  const gc = (require("node:vm") as typeof import("node:vm")).runInNewContext("gc") as () => void;
  Object.defineProperty(globalThis, "gc", { value: gc, writable: true, configurable: true, enumerable: false });
}

/** As under `node --no-addons`: process.dlopen (behind require of a .node file) throws. */
function refuseAddons(): void {
  process.dlopen = function dlopen(): never {
    const error = new Error("Cannot load native addon because loading addons is disabled.") as NodeJS.ErrnoException;
    error.code = "ERR_DLOPEN_DISABLED";
    throw error;
  };
}

/**
 * console.log & co. format with the options the global console keeps behind an internal
 * symbol; giving them a depth changes console output only (util.inspect keeps its default, and
 * console.dir's own `depth` option still wins).
 */
function setConsoleDepth(depth: number): void {
  const key = Object.getOwnPropertySymbols(console).find((symbol) => symbol.description === "kGetInspectOptions");
  if (!key) throw new Error("rt: this Node.js version's console has no inspect options to set --console-depth on");
  const consoleRecord = console as unknown as Record<symbol, (stream: unknown) => object>;
  const inspectOptions = consoleRecord[key]!;
  consoleRecord[key] = function (this: Console, stream: unknown) {
    return { ...inspectOptions.call(this, stream), depth };
  };
}
