// Diagnostics benchmark, side by side in one run:
//  1. stacks: create and read the stack of 100,000 errors thrown 10 frames deep, in a .ts file
//     under rt (original positions through source maps) against the same code as plain JS on
//     node without source maps. Target: rt <= 2x.
//  2. fetch: 10,000 sequential fetches to a local server under rt with RT_CONFIG_VERBOSE_FETCH
//     unset against plain node. Target: within noise (we report the ratio).
// Each program times its own loop (startup is bench/startup.mjs's business) and prints ms;
// the rows run round-robin and targets are judged on the median of per-round ratios.
//
//   node bench/diagnostics.mjs [--runs N]      (a report: always exits 0)
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { ENV, NODE, RT, WORK, median, runsOption, shuffle } from "./lib.mjs";

const FIX = path.join(WORK, "diagnostics");
const RUNS = runsOption(10);

const STACKS = `
function dive(depth: number): never {
  if (depth === 0) throw new Error("deep");
  return dive(depth - 1);
}
const start: number = performance.now();
let total: number = 0;
for (let i = 0; i < 100_000; i++) {
  try {
    dive(9);
  } catch (error) {
    total += (error as Error).stack!.length;
  }
}
console.log(performance.now() - start, total);
`;

const FETCHES = `
const start: number = performance.now();
for (let i = 0; i < 10_000; i++) await (await fetch(process.env.URL!)).text();
console.log(performance.now() - start);
`;

async function writeFixtures() {
  mkdirSync(FIX, { recursive: true });
  process.env.ESBUILD_WORKER_THREADS = "0";
  const { transformSync } = await import("esbuild");
  const files = { "package.json": `{ "type": "module" }\n`, "stacks.ts": STACKS, "fetches.ts": FETCHES };
  files["stacks.js"] = transformSync(STACKS, { loader: "ts" }).code;
  files["fetches.js"] = transformSync(FETCHES, { loader: "ts" }).code;
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(FIX, name), text);
}

/** Runs a program (asynchronously: the fetch server lives in this process) and returns its timing. */
function measure(row) {
  return new Promise((resolve, reject) => {
    const child = spawn(row.cmd, row.args, { cwd: FIX, env: row.env });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("close", (code) => (code === 0 ? resolve(Number.parseFloat(out)) : reject(new Error(`${row.name}: exit ${code}\n${err}`))));
  });
}

async function main() {
  await writeFixtures();
  const server = http.createServer((_request, response) => response.end("ok"));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const env = { ...ENV, URL: `http://127.0.0.1:${server.address().port}/` };
  const rtEnv = { ...env, RT_TRANSPILER_CACHE_PATH: path.join(WORK, "rt-cache") };
  delete rtEnv.RT_CONFIG_VERBOSE_FETCH;
  const blocks = [
    {
      title: "100,000 errors, 10 frames deep, stack read",
      target: 2,
      rows: [
        { name: "node stacks.js (no source maps)", cmd: NODE, args: ["stacks.js"], env, times: [] },
        { name: "rt stacks.ts (original positions)", cmd: NODE, args: [RT, "stacks.ts"], env: rtEnv, times: [] },
      ],
    },
    {
      title: "10,000 sequential fetches to a local server",
      target: null,
      rows: [
        { name: "node fetches.js", cmd: NODE, args: ["fetches.js"], env, times: [] },
        { name: "rt fetches.ts (RT_CONFIG_VERBOSE_FETCH unset)", cmd: NODE, args: [RT, "fetches.ts"], env: rtEnv, times: [] },
      ],
    },
  ];
  for (const block of blocks) await measure(block.rows[1]); // warm rt's transpiler cache
  for (let round = 0; round < RUNS; round++) {
    for (const block of blocks) for (const row of shuffle([...block.rows])) row.times.push(await measure(row));
  }
  server.close();

  console.log(`# rt diagnostics benchmark\n\n${RUNS} rounds; each program times its own loop (ms)\n`);
  for (const { title, target, rows } of blocks) {
    const [base, rt] = rows;
    const ratio = median(rt.times.map((t, i) => t / base.times[i]));
    console.log(`## ${title}\n\n| command | min ms | median ms | per-round ratio (median) |\n| --- | ---: | ---: | ---: |`);
    for (const row of rows) {
      const r = median(row.times.map((t, i) => t / base.times[i]));
      console.log(`| ${row.name} | ${Math.min(...row.times).toFixed(1)} | ${median(row.times).toFixed(1)} | ${r.toFixed(2)}x |`);
    }
    const verdict = target === null ? "(target: within noise)" : ratio <= target ? `PASS (target <= ${target}x)` : `FAIL (target <= ${target}x)`;
    console.log(`\n${rt.name} / ${base.name}: ${ratio.toFixed(2)}x ${verdict}\n`);
  }
}

await main();
