// Module-graph benchmark: what importing a real package's graph of hundreds of modules costs under rt
// against node running the same files with the entry precompiled (the packages are JavaScript, so
// the difference is rt's resolve/load hooks). Packages come from the compatibility suite's pinned
// install (test/compat, `npm ci` on first use). Each process times its own `await import(pkg)`
// (performance.now() around it) and prints it; rows run round-robin with per-round ratios (lib.mjs).
// Whole-process wall times are printed too, for information.
//
// rt enables V8's compile cache for the modules it loads; a second node row with NODE_COMPILE_CACHE
// separates that gain from the cost of rt's hooks.
//
//   node bench/module-graph.mjs [--runs N] [--no-peers]      (a report: always exits 0)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ENV, machineLine, median, NODE, pairwise, printTargets, RT, runsOption, shuffle, WARMUP, WORK } from "./lib.mjs";
import { COMPAT, install, runtimes } from "../test/compat/suite.mjs";

const FIX = path.join(WORK, "module-graph");
const RT_CACHE = path.join(WORK, "module-graph-rt-cache");
const NODE_V8_CACHE = path.join(WORK, "module-graph-node-v8");
const RUNS = runsOption(20);
// Packages whose barrel import loads 200+ modules: effect (ES modules) and rxjs (CommonJS under Node's "node" condition).
const PACKAGES = ["effect", "rxjs"];
// Issue 32: rxjs's import within 1.22× of node's on the same files, both with V8's code cache
// (rt's hooks alone; an empty module.registerHooks alone costs ~1.19×).
const HOOKS_ALONE = { rxjs: 1.22 };

const entry = (pkg, ts) =>
  `const start${ts ? ": number" : ""} = performance.now();\n` +
  `const mod${ts ? ": Record<string, unknown>" : ""} = await import("${pkg}");\n` +
  `const ms${ts ? ": number" : ""} = performance.now() - start;\n` +
  `console.log(JSON.stringify({ ms, exports: Object.keys(mod).length }));\n`;

function writeFixtures() {
  mkdirSync(FIX, { recursive: true });
  writeFileSync(path.join(FIX, "package.json"), `{ "type": "module", "private": true }\n`);
  // The project's own tsconfig.json, so rt does not pick up the repository's root one above bench/.work.
  writeFileSync(path.join(FIX, "tsconfig.json"), `{ "compilerOptions": { "strict": true, "target": "ES2022" } }\n`);
  const link = path.join(FIX, "node_modules");
  if (!existsSync(link)) symlinkSync(path.join(COMPAT, "node_modules"), link, "dir");
  for (const pkg of PACKAGES) {
    writeFileSync(path.join(FIX, `${pkg}.ts`), entry(pkg, true));
    writeFileSync(path.join(FIX, `${pkg}.js`), entry(pkg, false));
  }
}

/** How many modules (ESM and CommonJS) `node <pkg>.js` loads, counted by a load hook. */
function moduleCount(pkg) {
  const counter = `data:text/javascript,import{registerHooks}from"node:module";let n=0;registerHooks({load(u,c,next){n++;return next(u,c)}});process.on("exit",()=>process.stderr.write("modules="+n))`;
  const r = spawnSync(NODE, ["--import", counter, `${pkg}.js`], { cwd: FIX, env: ENV, encoding: "utf8" });
  return Number(/modules=(\d+)/.exec(r.stderr)?.[1] ?? NaN) - 1; // minus the entry itself
}

function runOnce(row) {
  const start = process.hrtime.bigint();
  const r = spawnSync(row.cmd, row.args, { cwd: FIX, env: row.env, encoding: "utf8" });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const line = r.stdout.trim().split("\n").pop() ?? "";
  if (r.status !== 0 || !line.startsWith("{")) throw new Error(`${row.name}: exit ${r.status}, ${(r.stderr || r.stdout).trim().split("\n")[0]}`);
  return { wall, ...JSON.parse(line) };
}

function blocks(peers) {
  const warm = { ...ENV, RT_TRANSPILER_CACHE_PATH: RT_CACHE };
  const codeCache = { ...ENV, NODE_COMPILE_CACHE: NODE_V8_CACHE };
  return PACKAGES.map((pkg) => ({
    pkg,
    rows: [
      { id: "base", name: `node ${pkg}.js`, cmd: NODE, args: [`${pkg}.js`], env: ENV },
      { id: "node-cc", name: `node ${pkg}.js (NODE_COMPILE_CACHE)`, cmd: NODE, args: [`${pkg}.js`], env: codeCache },
      { id: "rt", name: `rt ${pkg}.ts (warm cache)`, cmd: NODE, args: [RT, `${pkg}.ts`], env: warm },
      { id: "node-ts", name: `node ${pkg}.ts (type stripping)`, cmd: NODE, args: [`${pkg}.ts`], env: ENV },
      ...Object.entries(peers).map(([id, p]) => ({ id, name: `${id} ${pkg}.ts`, cmd: p.cmd, args: [...p.pre, `${pkg}.ts`], env: ENV })),
    ],
  }));
}

function printTable(title, rows, key) {
  const base = rows[0];
  const series = (row) => row[key];
  console.log(`## ${title} (baseline: ${base.name})\n`);
  console.log(`| command | min ms | median ms | per-round ratio (median) |`);
  console.log(`| --- | ---: | ---: | ---: |`);
  for (const row of rows) {
    const ratio = median(series(row).map((t, i) => t / series(base)[i]));
    console.log(`| ${row.name} | ${Math.min(...series(row)).toFixed(1)} | ${median(series(row)).toFixed(1)} | ${ratio.toFixed(2)}× |`);
  }
  console.log();
}

async function main() {
  const installError = install();
  if (installError) return console.log(`benchmark skipped: ${installError}`);
  writeFixtures();
  const all = runtimes();
  const peerIds = process.argv.includes("--no-peers") ? [] : ["tsx", "bun"];
  const peers = Object.fromEntries(peerIds.filter((id) => !all[id].missing).map((id) => [id, all[id]]));
  const list = blocks(peers);
  for (const dir of [RT_CACHE, NODE_V8_CACHE]) rmSync(dir, { recursive: true, force: true });
  for (const b of list) {
    // Check every command once (also warms rt's cache) and drop any that do not run here.
    b.rows = b.rows.filter((row) => {
      try {
        runOnce(row);
        return true;
      } catch (error) {
        console.log(`skipped ${error.message}`);
        return row.id === "base";
      }
    });
    b.modules = moduleCount(b.pkg);
  }
  const rows = list.flatMap((b) => b.rows);
  console.log(`# rt module-graph benchmark\n`);
  console.log(
    `node ${all.node.version}, rt ${all.rt.version}` +
      Object.entries(peers)
        .map(([id, p]) => `, ${id} ${p.version}`)
        .join(""),
  );
  console.log(machineLine());
  console.log(`${RUNS} rounds after ${WARMUP} warm-up rounds, ${rows.length} commands per round in random order`);
  for (const b of list) console.log(`- ${b.pkg}: \`await import("${b.pkg}")\` loads ${b.modules} modules under node`);
  console.log();

  for (const row of rows) Object.assign(row, { times: [], walls: [] });
  for (let round = 0; round < WARMUP + RUNS; round++) {
    for (const row of shuffle([...rows])) {
      const { ms, wall } = runOnce(row);
      if (round >= WARMUP) row.times.push(ms), row.walls.push(wall);
    }
  }
  for (const b of list) {
    printTable(`${b.pkg}: time of \`await import("${b.pkg}")\` inside the process`, b.rows, "times");
    printTable(`${b.pkg}: whole process`, b.rows, "walls");
  }
  printTargets(
    list.flatMap((b) => {
      const [base, codeCache, rt] = ["base", "node-cc", "rt"].map((id) => b.rows.find((r) => r.id === id));
      return [
        [`import of ${b.pkg} (${b.modules} modules) under warm rt vs node on precompiled files`, rt, base, 1.1],
        [`the same vs node with V8's compile cache (rt's hooks alone)`, rt, codeCache, HOOKS_ALONE[b.pkg] ?? 1.1],
      ];
    }),
  );
  console.log(`\nFor information (whole process, per-round ratio vs node):`);
  for (const b of list) {
    const base = b.rows[0];
    const walls = (row) => ({ times: row.walls });
    console.log(
      `- ${b.pkg}: ` +
        b.rows
          .slice(1)
          .map((row) => `${row.name} ${pairwise(walls(row), walls(base)).toFixed(2)}×`)
          .join(", "),
    );
  }
}

await main().catch((error) => console.log(`benchmark aborted: ${error.stack ?? error}`));
process.exitCode = 0;
