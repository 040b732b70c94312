// Inspector benchmark, side by side in one run, next to `node --inspect`:
//  1. startup: `rt --inspect hello.ts` against `rt hello.ts` (target: <= 30 ms added), and
//     `node --inspect hello.js` against `node hello.js`; whole processes, round-robin.
//     The floor row is the least a server on a JavaScript thread can add: plain Node, whose worker
//     thread listens on loopback before the program's first line (rt's server is such a thread:
//     it must answer while the program is paused, and Node's native inspector cannot serve
//     rt's /<prefix> path or its web debugger).
//  2. round trip: Runtime.evaluate over the WebSocket, sequentially (target: median <= 1 ms).
//
//   node bench/inspector.mjs [--runs N]      (a report: always exits 0)
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ENV, NODE, RT, WORK, measure, median, runsOption } from "./lib.mjs";

const FIX = path.join(WORK, "inspector");
const RUNS = runsOption(20);
const EVALUATIONS = 2000;

function writeFixtures() {
  mkdirSync(FIX, { recursive: true });
  writeFileSync(path.join(FIX, "package.json"), `{ "type": "module" }\n`);
  writeFileSync(path.join(FIX, "hello.ts"), `const message: string = "hello from ts";\nconsole.log(message);\n`);
  writeFileSync(path.join(FIX, "hello.js"), `const message = "hello from ts";\nconsole.log(message);\n`);
  writeFileSync(path.join(FIX, "idle.js"), `setTimeout(() => {}, 60_000);\n`);
  writeFileSync(
    path.join(FIX, "thread-floor.cjs"),
    [
      `const { Worker } = require("node:worker_threads");`,
      `const listening = new Int32Array(new SharedArrayBuffer(4));`,
      `const server = 'const { workerData } = require("node:worker_threads"); require("node:net").createServer().listen(0, "127.0.0.1", () => { Atomics.store(workerData, 0, 1); Atomics.notify(workerData, 0); });';`,
      `new Worker(server, { eval: true, workerData: listening, stdout: false, stderr: false }).unref();`,
      `Atomics.wait(listening, 0, 0);`,
      `const message = "hello from ts";`,
      `console.log(message);`,
    ].join("\n") + "\n",
  );
}

/** Starts an idle program with a debugger; resolves with its WebSocket URL and the process. */
function startIdle(cmd, args) {
  const child = spawn(cmd, args, { cwd: FIX, env: ENV });
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const url = /(ws:\/\/\S+)/.exec(stderr)?.[1];
      if (url) resolve({ child, url });
    });
    child.on("close", () => reject(new Error(`exited before listening:\n${stderr}`)));
  });
}

async function roundTrips(url) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => ((socket.onopen = resolve), (socket.onerror = reject)));
  let pending;
  socket.onmessage = () => pending();
  const times = [];
  for (let i = 0; i < EVALUATIONS; i++) {
    const start = process.hrtime.bigint();
    await new Promise((resolve) => {
      pending = resolve;
      socket.send(JSON.stringify({ id: i + 1, method: "Runtime.evaluate", params: { expression: "1 + 1" } }));
    });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  socket.close();
  return times.slice(100); // the first calls warm up both ends
}

async function main() {
  writeFixtures();
  const rtEnv = { ...ENV, RT_TRANSPILER_CACHE_PATH: path.join(WORK, "rt-cache") };
  const rows = [
    { name: "rt hello.ts", cmd: NODE, args: [RT, "hello.ts"], env: rtEnv, cwd: FIX },
    { name: "rt --inspect hello.ts", cmd: NODE, args: [RT, "--inspect", "hello.ts"], env: rtEnv, cwd: FIX },
    { name: "node hello.js", cmd: NODE, args: ["hello.js"], env: ENV, cwd: FIX },
    { name: "node --inspect=127.0.0.1:0 hello.js", cmd: NODE, args: ["--inspect=127.0.0.1:0", "hello.js"], env: ENV, cwd: FIX },
    { name: "node thread-floor.cjs (a worker thread listening first)", cmd: NODE, args: ["thread-floor.cjs"], env: ENV, cwd: FIX },
  ];
  measure(rows, RUNS);
  const added = (a, b) => median(a.times.map((t, i) => t - b.times[i]));

  const rt = await startIdle(NODE, [RT, "--inspect", "idle.js"]);
  const rtTrips = await roundTrips(rt.url);
  rt.child.kill();
  const node = await startIdle(NODE, ["--inspect=127.0.0.1:0", "idle.js"]);
  const nodeTrips = await roundTrips(node.url);
  node.child.kill();

  console.log(`# rt inspector benchmark\n\n${RUNS} rounds of whole processes (round-robin); ${EVALUATIONS} sequential Runtime.evaluate calls\n`);
  console.log("## Startup\n\n| command | min ms | median ms |\n| --- | ---: | ---: |");
  for (const row of rows) console.log(`| ${row.name} | ${Math.min(...row.times).toFixed(1)} | ${median(row.times).toFixed(1)} |`);
  const rtAdded = added(rows[1], rows[0]);
  console.log(`\nadded by --inspect (median of per-round differences): rt ${rtAdded.toFixed(1)} ms, node ${added(rows[3], rows[2]).toFixed(1)} ms`);
  console.log(`added by a listening worker thread alone (the floor for a server on a JavaScript thread): ${added(rows[4], rows[2]).toFixed(1)} ms`);
  console.log(`${rtAdded <= 30 ? "PASS" : "FAIL"} rt --inspect adds ${rtAdded.toFixed(1)} ms (target <= 30 ms)\n`);
  console.log("## Runtime.evaluate round trip over the WebSocket\n\n| debugger | median ms | p90 ms |\n| --- | ---: | ---: |");
  const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
  console.log(`| rt --inspect | ${median(rtTrips).toFixed(3)} | ${p90(rtTrips).toFixed(3)} |`);
  console.log(`| node --inspect | ${median(nodeTrips).toFixed(3)} | ${p90(nodeTrips).toFixed(3)} |`);
  console.log(`\n${median(rtTrips) <= 1 ? "PASS" : "FAIL"} rt round trip median ${median(rtTrips).toFixed(3)} ms (target <= 1 ms)`);
}

await main();
