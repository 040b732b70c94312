// rt.gc(): a garbage collection on request, with or without --expose-gc (bun's Bun.gc). V8 makes
// `gc` for contexts created while its flag is on, so one is taken from a throwaway context and
// the flag turned off again: the program's own global gets no `gc` it did not ask for.

type V8Gc = (options?: { type?: "major" | "minor"; execution?: "sync" | "async" }) => unknown;

let v8Gc: V8Gc | undefined;

/** `force`: a full collection now; otherwise a full one is scheduled on V8's own time. */
export function gc(force = false): void {
  v8Gc ??= exposedGc();
  if (force) v8Gc({ type: "major", execution: "sync" });
  else void v8Gc({ type: "major", execution: "async" });
}

function exposedGc(): V8Gc {
  const global = (globalThis as { gc?: V8Gc }).gc;
  if (typeof global === "function") return global;
  // Required here, not imported: node:v8 stays off the startup path until rt.gc() is called.
  const { setFlagsFromString } = require("node:v8") as typeof import("node:v8");
  const { runInNewContext } = require("node:vm") as typeof import("node:vm");
  setFlagsFromString("--expose-gc");
  try {
    return runInNewContext("gc") as V8Gc;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}
