// What the benchmarks share: paths, the one environment every command runs with, the peers
// (installed from the npm registry into bench/.work/peers, which is git-ignored) and the
// round-robin timing. The machine is shared and noisy, so commands run round-robin (every
// command once per round, in a fresh random order) and each row is also compared with its
// block's baseline *in the same round*; the median of those per-round ratios cancels slow drift
// and is what the targets are judged on.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const WORK = path.join(ROOT, "bench", ".work");
export const PEERS = path.join(WORK, "peers");
export const RT = path.join(ROOT, "runtime", "bin", "rt.cjs");
/** rt's compiled front (runtime/native/), what node_modules/.bin/rt starts once built; undefined without it. */
export const FRONT = existsSync(path.join(ROOT, "runtime", "dist", "rt")) ? path.join(ROOT, "runtime", "dist", "rt") : undefined;
// The project's Node 24, whatever node started this script (the system one may be older).
export const NODE = existsSync(path.join(ROOT, "node_modules/.bin/node")) ? path.join(ROOT, "node_modules/.bin/node") : process.execPath;
export const WARMUP = 3;

// One environment for every command. NODE_COMPILE_CACHE would give some rows a code cache others
// lack; PATH leads with Node 24, so tools that start `node` (npm, scripts) run on it.
export const ENV = { ...process.env, PATH: `${path.dirname(NODE)}${path.delimiter}${process.env.PATH ?? ""}` };
delete ENV.NODE_COMPILE_CACHE;
// rt's caches (V8's code cache of its own bundle among them) in the benchmark's own directory: what
// the runs measure is then what the benchmark's first runs made, not what ran on this machine before.
ENV.XDG_CACHE_HOME = path.join(WORK, "xdg-cache");
delete ENV.RT_TRANSPILER_CACHE_PATH;

export function run(cmd, args, { cwd = WORK, env = ENV } = {}) {
  return spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: 300_000 });
}

function findBun() {
  const oven = path.join(PEERS, "node_modules", "@oven");
  const candidates = [path.join(PEERS, "node_modules/bun/bin/bun.exe")];
  if (existsSync(oven)) for (const dir of readdirSync(oven)) candidates.push(path.join(oven, dir, "bin", "bun"));
  // Without its postinstall, bun.exe is a placeholder: take the first binary that answers.
  return candidates.find((file) => existsSync(file) && run(file, ["--version"]).status === 0);
}

/** tsx and bun from the npm registry, installed on first use: { id: { cmd, pre, version } }. */
export function setupPeers(ids) {
  const tsxCli = path.join(PEERS, "node_modules/tsx/dist/cli.mjs");
  const missing = (ids.includes("tsx") && !existsSync(tsxCli)) || (ids.includes("bun") && !findBun());
  if (missing) {
    mkdirSync(PEERS, { recursive: true });
    const npm = run("npm", ["i", "--no-save", "--prefix", PEERS, "tsx", "bun"]);
    if (npm.status !== 0) console.log(`npm install of peers failed: ${(npm.error?.message ?? npm.stderr).trim().split("\n").pop()}`);
  }
  const peers = {};
  if (ids.includes("tsx")) {
    if (existsSync(tsxCli)) {
      const version = JSON.parse(readFileSync(path.join(PEERS, "node_modules/tsx/package.json"), "utf8")).version;
      peers.tsx = { cmd: NODE, pre: [tsxCli], version };
    } else console.log("skipped tsx: not installed (see npm output above)");
  }
  if (ids.includes("bun")) {
    const bun = findBun();
    if (bun) peers.bun = { cmd: bun, pre: [], version: run(bun, ["--version"]).stdout.trim() };
    else console.log("skipped bun: no bun binary that runs `--version` under bench/.work/peers");
  }
  return peers;
}

/** `--runs N` (default `fallback`). */
export function runsOption(fallback) {
  const { values } = parseArgs({ options: { runs: { type: "string", default: String(fallback) } }, strict: false });
  return Math.max(1, Number.parseInt(String(values.runs), 10) || fallback);
}

export function machineLine() {
  return `${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`;
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
/** Median over rounds of (a's time - b's time in the same round), in ms. */
export const pairwiseDifference = (a, b) => median(a.times.map((t, i) => t - b.times[i]));

function timeOnce(row) {
  const start = process.hrtime.bigint();
  const result = spawnSync(row.cmd, row.args, { cwd: row.cwd, env: row.env ?? ENV, stdio: "ignore" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${row.name} exited with ${result.status ?? result.signal}`);
  return ms;
}

/** Times every row `rounds` times after the warm-up rounds, round-robin in random order; fills row.times. */
export function measure(rows, rounds) {
  for (const row of rows) row.times = [];
  for (let round = 0; round < WARMUP + rounds; round++) {
    for (const row of shuffle([...rows])) {
      const ms = timeOnce(row);
      if (round >= WARMUP) row.times.push(ms);
    }
  }
}

/**
 * CPU time of each row (user + system, ms, its child processes included), measured by
 * `perf stat -e task-clock` round-robin like measure(); fills row.cpu. On a loaded machine the
 * wall time of a few milliseconds is mostly waiting for a core; CPU time is what a command costs.
 * Returns false where perf cannot count (not installed, no permission).
 */
export function measureCpu(rows, rounds) {
  const once = (row) => {
    const result = spawnSync("perf", ["stat", "-x", ",", "-e", "task-clock", row.cmd, ...row.args], {
      cwd: row.cwd,
      env: row.env ?? ENV,
      encoding: "utf8",
      stdio: ["ignore", "ignore", "pipe"],
    });
    const line = result.status === 0 ? result.stderr.split("\n").find((l) => l.includes("task-clock")) : undefined;
    const ms = Number(line?.split(",")[0]);
    return Number.isFinite(ms) && ms > 0 ? ms : undefined;
  };
  if (rows.some((row) => once(row) === undefined)) return false;
  for (const row of rows) row.cpu = [];
  for (let round = 0; round < rounds; round++) for (const row of shuffle([...rows])) row.cpu.push(once(row));
  return true;
}

/** The median per-round CPU difference of two rows measured by measureCpu, in ms. */
export const cpuDifference = (a, b) => median(a.cpu.map((t, i) => t - b.cpu[i]));

/** A markdown table of a block's rows against its first row. */
export function printBlock(title, rows) {
  const base = rows[0];
  console.log(`## ${title} (baseline: ${base.name})\n`);
  console.log(`| command | min ms | median ms | median / baseline | per-round ratio (median) |`);
  console.log(`| --- | ---: | ---: | ---: | ---: |`);
  for (const row of rows) {
    const ratio = (median(row.times) / median(base.times)).toFixed(2);
    console.log(`| ${row.name} | ${Math.min(...row.times).toFixed(1)} | ${median(row.times).toFixed(1)} | ${ratio}× | ${pairwise(row, base).toFixed(2)}× |`);
  }
  console.log();
}

/** PASS/FAIL lines for [label, row, baseline row, limit] targets, judged on the per-round ratio. */
export function printTargets(targets) {
  console.log(`## Targets (per-round ratio, median)\n`);
  for (const [label, a, b, limit] of targets) {
    if (!a || !b) console.log(`- SKIP ${label}: a command did not run`);
    else {
      const r = pairwise(a, b);
      console.log(`- ${r <= limit ? "PASS" : "FAIL"} ${label}: ${r.toFixed(2)}× (target ≤ ${limit}×)`);
    }
  }
}
