// Shared by the benchmarks: where things are, one environment for every command, and the
// statistics (medians; per-round ratios are computed by each script from its rounds).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const WORK = path.join(ROOT, "bench", ".work");
export const RT = path.join(ROOT, "runtime", "bin", "rt.cjs");
// The project's Node 24, whatever node started the script (the system one may be older).
export const NODE = existsSync(path.join(ROOT, "node_modules/.bin/node")) ? path.join(ROOT, "node_modules/.bin/node") : process.execPath;

/** One environment for every command: Node 24 first on PATH; no compile cache some rows would lack. */
export const ENV = { ...process.env, PATH: `${path.dirname(NODE)}${path.delimiter}${process.env.PATH ?? ""}` };
delete ENV.NODE_COMPILE_CACHE;
delete ENV.RT_TRANSPILER_CACHE_PATH;

/** `--runs N` (default `fallback`). */
export function runsOption(fallback) {
  const { values } = parseArgs({ options: { runs: { type: "string", default: String(fallback) } } });
  return Math.max(1, Number.parseInt(values.runs, 10) || fallback);
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const shuffle = (xs) => {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
};
