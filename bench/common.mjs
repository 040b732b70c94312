// What the side-by-side benchmarks share: where things are, the peer tools installed under
// bench/.work/peers, and the statistics (medians of per-round ratios).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const WORK = path.join(ROOT, "bench", ".work");
export const PEERS = path.join(WORK, "peers");
export const RT = path.join(ROOT, "runtime", "bin", "rt.cjs");
// The project's Node 24, whatever node started this script (the system one may be older).
export const NODE = existsSync(path.join(ROOT, "node_modules/.bin/node")) ? path.join(ROOT, "node_modules/.bin/node") : process.execPath;

/** The environment with Node 24 first on PATH, for tools that spawn `node` (npm, bun, tsx). */
export const NODE_FIRST_ENV = { ...process.env, PATH: `${path.dirname(NODE)}${path.delimiter}${process.env.PATH ?? ""}` };

/** Installs npm packages into bench/.work/peers (never into the project); reports a failure. */
export function installPeers(packages) {
  mkdirSync(PEERS, { recursive: true });
  const npm = spawnSync("npm", ["i", "--no-save", "--prefix", PEERS, ...packages], { env: NODE_FIRST_ENV, encoding: "utf8", timeout: 300_000 });
  if (npm.status !== 0) console.log(`npm install of peers failed: ${(npm.error?.message ?? npm.stderr).trim().split("\n").pop()}`);
}

/** The bun binary under bench/.work/peers that runs, if any. */
export function findBun() {
  const oven = path.join(PEERS, "node_modules", "@oven");
  const candidates = [path.join(PEERS, "node_modules/bun/bin/bun.exe")];
  if (existsSync(oven)) for (const dir of readdirSync(oven)) candidates.push(path.join(oven, dir, "bin", "bun"));
  // Without its postinstall, bun.exe is a placeholder: take the first binary that answers.
  return candidates.find((file) => existsSync(file) && spawnSync(file, ["--version"]).status === 0);
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

/** Median over rounds of (a's time / b's time in the same round). */
export const pairwise = (a, b) => median(a.times.map((t, i) => t / b.times[i]));
