// Process-control benchmark, side by side in one run:
//  1. unused features: `rt hello.ts` (warm cache) built from this tree against the same file
//     on rt built from the commit before process control landed (dede4d5), plus node hello.js.
//     Target: this tree adds <= 2 ms (median of per-round differences). For information: the
//     cost when rtfig.toml and a .env file are present.
//  2. --watch restart latency: from writing a file to the new process's first line, over N
//     edits, against `node --watch` on the same program. Target: <= 1.5x node --watch.
//  3. --hot reload latency: the same edit under `rt --hot`. Target: <= 0.5x the --watch restart.
// Rows run round-robin (each edit goes to every watcher in a fresh random order) and targets are
// judged on medians of per-round ratios or differences.
//
//   node bench/process.mjs [--runs N]      (a report: always exits 0)
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ENV, NODE, ROOT, RT, WORK, median, runsOption, shuffle } from "./lib.mjs";

const FIX = path.join(WORK, "process");
const BASE_COMMIT = "dede4d5";
const BASE = path.join(WORK, `rt-${BASE_COMMIT}`);
const RT_CACHE = path.join(WORK, "process-rt-cache");
const RUNS = runsOption(20);
const WARMUP = 3;

const diffs = (a, b) => median(a.times.map((t, i) => t - b.times[i]));
const ratios = (a, b) => median(a.times.map((t, i) => t / b.times[i]));

/** rt as it was before this feature: the runtime folder of the base commit, built in bench/.work (its packages resolve from the repo's node_modules). */
function buildBase() {
  const bin = path.join(BASE, "runtime", "bin", "rt.cjs");
  if (existsSync(path.join(BASE, "runtime", "dist", "cli.cjs"))) return bin;
  rmSync(BASE, { recursive: true, force: true });
  mkdirSync(BASE, { recursive: true });
  const archive = execFileSync("git", ["-C", ROOT, "archive", BASE_COMMIT, "runtime"]);
  execFileSync("tar", ["-x", "-C", BASE], { input: archive });
  execFileSync(NODE, ["build.mjs"], { cwd: path.join(BASE, "runtime"), stdio: "inherit" });
  return bin;
}

function writeFixtures() {
  for (const name of ["plain", "configured", "watch-rt", "watch-node", "hot-rt"]) mkdirSync(path.join(FIX, name), { recursive: true });
  for (const dir of ["plain", "configured"]) {
    writeFileSync(path.join(FIX, dir, "hello.ts"), `const message: string = "hello from ts";\nconsole.log(message);\n`);
    writeFileSync(path.join(FIX, dir, "hello.js"), `const message = "hello from ts";\nconsole.log(message);\n`);
  }
  writeFileSync(path.join(FIX, "configured", "rtfig.toml"), `console-depth = 3\n`);
  writeFileSync(path.join(FIX, "configured", ".env"), `GREETING=hello\n`);
}

// ---- 1. startup with the features unused --------------------------------------------------
function timeOnce(row) {
  const start = process.hrtime.bigint();
  const result = spawnSync(row.cmd, row.args, { cwd: row.cwd, env: row.env, stdio: "ignore" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${row.name} exited with ${result.status ?? result.signal}`);
  return ms;
}

function startup(baseBin) {
  const env = { ...ENV, RT_TRANSPILER_CACHE_PATH: RT_CACHE };
  const plain = path.join(FIX, "plain");
  const rows = [
    { id: "node", name: "node hello.js", cmd: NODE, args: ["hello.js"], cwd: plain, env: ENV },
    { id: "base", name: `rt hello.ts, built from ${BASE_COMMIT} (before)`, cmd: NODE, args: [baseBin, "hello.ts"], cwd: plain, env },
    { id: "now", name: "rt hello.ts, this tree", cmd: NODE, args: [RT, "hello.ts"], cwd: plain, env },
    { id: "configured", name: "rt hello.ts with rtfig.toml and .env present", cmd: NODE, args: [RT, "hello.ts"], cwd: path.join(FIX, "configured"), env },
  ];
  for (const row of rows) {
    row.times = [];
    timeOnce(row); // warms the transpiler cache
  }
  for (let round = 0; round < WARMUP + RUNS * 2; round++) {
    for (const row of shuffle([...rows])) {
      const ms = timeOnce(row);
      if (round >= WARMUP) row.times.push(ms);
    }
  }
  return Object.fromEntries(rows.map((row) => [row.id, row]));
}

// ---- 2 & 3. restart and reload latency ----------------------------------------------------
const tick = (n) => `console.log("tick ${n}");\n`;

/** A long-running watcher whose stdout we scan for `tick <n>`. */
function startWatcher(row) {
  writeFileSync(path.join(row.cwd, "tick.mjs"), tick(0));
  const child = spawn(row.cmd, row.args, { cwd: row.cwd, env: row.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let waiter;
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    output += chunk;
    waiter?.();
  });
  child.stderr.resume();
  row.child = child;
  row.seen = (n) => output.includes(`tick ${n}\n`);
  row.waitFor = (n) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${row.name}: no "tick ${n}" within 30 s`)), 30_000);
      waiter = () => {
        if (!row.seen(n)) return;
        clearTimeout(timer);
        waiter = undefined;
        resolve(process.hrtime.bigint());
      };
      waiter();
    });
  row.times = [];
  return row.waitFor(0);
}

async function editOnce(row, n) {
  // Distinct mtimes and a settled watcher: the previous run has printed; wait a little more.
  await new Promise((resolve) => setTimeout(resolve, 150));
  const start = process.hrtime.bigint();
  writeFileSync(path.join(row.cwd, "tick.mjs"), tick(n));
  const end = await row.waitFor(n);
  return Number(end - start) / 1e6;
}

async function latency() {
  const env = { ...ENV, RT_TRANSPILER_CACHE_PATH: RT_CACHE };
  const rows = [
    { id: "node", name: "node --watch tick.mjs", cmd: NODE, args: ["--watch", "tick.mjs"], cwd: path.join(FIX, "watch-node"), env: ENV },
    { id: "watch", name: "rt --watch tick.mjs", cmd: NODE, args: [RT, "--watch", "tick.mjs"], cwd: path.join(FIX, "watch-rt"), env },
    { id: "hot", name: "rt --hot tick.mjs", cmd: NODE, args: [RT, "--hot", "tick.mjs"], cwd: path.join(FIX, "hot-rt"), env },
  ];
  await Promise.all(rows.map(startWatcher));
  try {
    for (let n = 1; n <= WARMUP + RUNS; n++) {
      for (const row of shuffle([...rows])) {
        const ms = await editOnce(row, n);
        if (n > WARMUP) row.times.push(ms);
      }
    }
  } finally {
    for (const row of rows) row.child.kill("SIGTERM");
  }
  return Object.fromEntries(rows.map((row) => [row.id, row]));
}

async function main() {
  writeFixtures();
  const baseBin = buildBase();
  console.log(`# rt process-control benchmark\n`);
  console.log(
    `node ${spawnSync(NODE, ["--version"], { encoding: "utf8" }).stdout.trim()}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(`startup: ${RUNS * 2} rounds; watch/hot: ${RUNS} edits per watcher (after ${WARMUP} warm-up rounds each)\n`);

  const s = startup(baseBin);
  console.log(`## Startup when the features are not used\n`);
  console.log(`| command | min ms | median ms | per-round difference to "before" (median) |`);
  console.log(`| --- | ---: | ---: | ---: |`);
  for (const row of Object.values(s)) {
    console.log(
      `| ${row.name} | ${Math.min(...row.times).toFixed(1)} | ${median(row.times).toFixed(1)} | ${row.id === "node" ? "" : `${diffs(row, s.base) >= 0 ? "+" : ""}${diffs(row, s.base).toFixed(2)} ms`} |`,
    );
  }

  const l = await latency();
  console.log(`\n## Restart / reload latency (file written → the new run's first line)\n`);
  console.log(`| command | min ms | median ms | per-round ratio to node --watch (median) |`);
  console.log(`| --- | ---: | ---: | ---: |`);
  for (const row of Object.values(l)) {
    console.log(`| ${row.name} | ${Math.min(...row.times).toFixed(1)} | ${median(row.times).toFixed(1)} | ${ratios(row, l.node).toFixed(2)}× |`);
  }

  const added = diffs(s.now, s.base);
  const targets = [
    [`unused features add to warm \`rt hello.ts\`: ${added.toFixed(2)} ms (target ≤ 2 ms)`, added <= 2],
    [`\`rt --watch\` restart vs \`node --watch\`: ${ratios(l.watch, l.node).toFixed(2)}× (target ≤ 1.5×)`, ratios(l.watch, l.node) <= 1.5],
    [`\`rt --hot\` reload vs \`rt --watch\` restart: ${ratios(l.hot, l.watch).toFixed(2)}× (target ≤ 0.5×)`, ratios(l.hot, l.watch) <= 0.5],
  ];
  console.log(`\n## Targets\n`);
  for (const [label, pass] of targets) console.log(`- ${pass ? "PASS" : "FAIL"} ${label}`);
  console.log(
    `\nFor information: warm \`rt hello.ts\` with rtfig.toml and .env present: ${diffs(s.configured, s.base) >= 0 ? "+" : ""}${diffs(s.configured, s.base).toFixed(2)} ms over "before".`,
  );
}

await main().catch((error) => {
  console.log(`benchmark aborted: ${error.stack ?? error}`);
});
process.exitCode = 0;
