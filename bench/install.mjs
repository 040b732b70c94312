// Auto-install benchmark: the first import of a small package that rt auto-installed, from a warm
// cache, against the same import from node_modules (target: at most 20 ms added), and bun's
// auto-install from its warm cache against bun with node_modules when bun is installed. The
// registry is a local verdaccio with the fixture packages (test/support/registry.mjs).
//
//   node bench/install.mjs [--runs N]      (a report: always exits 0)
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startRegistry } from "../test/support/registry.mjs";
import { ENV, machineLine, measure, median, NODE, pairwise, printBlock, RT, ROOT, run, runsOption, setupPeers, shuffle } from "./lib.mjs";

const RUNS = runsOption(30);
const LIMIT_MS = 20;
const PACKAGE = path.join(ROOT, "test", "fixtures", "install", "packages", "rt-greet-2.0.0");

// Outside the repository: auto-install works where no node_modules is found up the tree.
const root = mkdtempSync(path.join(os.tmpdir(), "rt-bench-install-"));
const registry = await startRegistry();
try {
  await registry.publish(PACKAGE);
  const app = 'import greet from "rt-greet";\nconsole.log(greet("bench"));\n';
  // The same import timed inside the process: resolution and loading of the package only.
  const timedApp =
    'const started = performance.now();\nconst { default: greet } = await import("rt-greet");\nconsole.log((performance.now() - started).toFixed(3), greet("bench"));\n';
  const fromCache = path.join(root, "from-cache");
  const fromNodeModules = path.join(root, "from-node-modules");
  for (const dir of [fromCache, fromNodeModules]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "app.js"), app);
    writeFileSync(path.join(dir, "timed.mjs"), timedApp);
  }
  cpSync(PACKAGE, path.join(fromNodeModules, "node_modules", "rt-greet"), { recursive: true });
  const env = {
    ...ENV,
    XDG_CACHE_HOME: path.join(root, "cache"),
    npm_config_registry: registry.url,
    BUN_CONFIG_REGISTRY: registry.url,
    BUN_INSTALL_CACHE_DIR: path.join(root, "bun-cache"),
  };

  const rows = [
    { name: "rt app.js (node_modules)", cmd: NODE, args: [RT, "app.js"], cwd: fromNodeModules, env },
    { name: "rt app.js (auto-install, warm cache)", cmd: NODE, args: [RT, "app.js"], cwd: fromCache, env },
  ];
  const bun = setupPeers(["bun"]).bun;
  if (bun) {
    rows.push(
      { name: `bun ${bun.version} app.js (node_modules)`, cmd: bun.cmd, args: ["app.js"], cwd: fromNodeModules, env },
      { name: `bun ${bun.version} app.js (auto-install, warm cache)`, cmd: bun.cmd, args: ["app.js"], cwd: fromCache, env },
    );
  }
  // The first run of each fills the caches (the install itself, rt's transpiler and code caches).
  for (const row of [...rows, { name: "rt timed.mjs", cmd: NODE, args: [RT, "timed.mjs"], cwd: fromCache, env }]) {
    const first = run(row.cmd, row.args, { cwd: row.cwd, env: row.env });
    if (first.status !== 0) throw new Error(`${row.name}: ${first.stderr}`);
  }
  measure(rows, RUNS);

  console.log(`# Auto-install: first import of a small package (${RUNS} rounds; ${machineLine()})\n`);
  printBlock("rt", rows.slice(0, 2));
  if (bun) printBlock("bun", rows.slice(2));
  const added = (a, b) => median(a.times.map((t, i) => t - b.times[i]));
  // In-process: the import alone, from node_modules and from the cache, alternating.
  const inProcess = { node_modules: [], "warm cache": [] };
  for (let round = 0; round < RUNS; round++) {
    for (const [label, cwd] of shuffle([
      ["node_modules", fromNodeModules],
      ["warm cache", fromCache],
    ])) {
      inProcess[label].push(Number(run(NODE, [RT, "timed.mjs"], { cwd, env }).stdout.split(" ")[0]));
    }
  }
  const importAdded = median(inProcess["warm cache"].map((ms, i) => ms - inProcess["node_modules"][i]));
  console.log(`## rt: the first import alone, timed inside the process (await import("rt-greet"))\n`);
  console.log(`| from | min ms | median ms |\n| --- | ---: | ---: |`);
  for (const [label, times] of Object.entries(inProcess)) console.log(`| ${label} | ${Math.min(...times).toFixed(2)} | ${median(times).toFixed(2)} |`);
  console.log();
  console.log(`## Targets (per-round difference, median)\n`);
  console.log(
    `- ${importAdded <= LIMIT_MS ? "PASS" : "FAIL"} rt's first import from a warm cache, inside the process, adds ${importAdded.toFixed(2)} ms to the same import from node_modules (target ≤ ${LIMIT_MS} ms)`,
  );
  const rtAdded = added(rows[1], rows[0]);
  console.log(
    `- ${rtAdded <= LIMIT_MS ? "PASS" : "FAIL"} rt app.js, whole process: auto-install from a warm cache adds ${rtAdded.toFixed(1)} ms (${pairwise(rows[1], rows[0]).toFixed(2)}×) to an import from node_modules (target ≤ ${LIMIT_MS} ms)`,
  );
  if (bun) console.log(`- bun auto-install from a warm cache adds ${added(rows[3], rows[2]).toFixed(1)} ms (${pairwise(rows[3], rows[2]).toFixed(2)}×)`);
} finally {
  registry.stop();
  rmSync(root, { recursive: true, force: true });
}
