// rt.serve's hello-world throughput against a plain node:http server on the same Node and
// Bun.serve, with wrk (Debian package `wrk`). Each server runs as one long-lived process; every
// round loads each of them once for --seconds, in a fresh random order, and the rt/node ratio
// is the median of per-round ratios (the machine is shared and noisy: see bench/lib.mjs).
//
//   node bench/serve.mjs [--rounds N] [--seconds S] [--connections C]   (a report: exits 0)
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { ENV, machineLine, median, NODE, RT, setupPeers, shuffle, WORK } from "./lib.mjs";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "7" }, seconds: { type: "string", default: "3" }, connections: { type: "string", default: "50" } },
});
const ROUNDS = Math.max(1, Number.parseInt(values.rounds, 10) || 7);
const SECONDS = Math.max(1, Number.parseInt(values.seconds, 10) || 3);
const CONNECTIONS = Math.max(1, Number.parseInt(values.connections, 10) || 50);
const TARGET = 0.9;

// The same answer from each: 200, "Hello, world!", text/plain. Each prints its port when listening.
const DIR = path.join(WORK, "serve");
const SERVERS = {
  "hello-rt.ts": `const server = rt.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("Hello, world!") });
setTimeout(() => console.log(server.port), 10);\n`,
  "hello-node.mjs": `import http from "node:http";
const server = http.createServer((request, response) => {
  response.writeHead(200, { "content-type": "text/plain;charset=UTF-8" });
  response.end("Hello, world!");
}).listen(0, "127.0.0.1", () => console.log(server.address().port));\n`,
  "hello-bun.ts": `const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("Hello, world!") });
console.log(server.port);\n`,
};

function start(name, cmd, args) {
  const child = spawn(cmd, args, { cwd: DIR, env: ENV, stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return lines.next().then(({ value, done }) => {
    if (done) throw new Error(`${name} exited before listening`);
    return { name, port: Number(value), stop: () => child.kill(), rates: [] };
  });
}

function wrk(port, seconds) {
  const result = spawnSync("wrk", ["-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, `http://127.0.0.1:${port}/`], { encoding: "utf8" });
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(result.stdout ?? "");
  if (!rate || /Non-2xx/.test(result.stdout)) throw new Error(`wrk failed: ${result.stderr || result.stdout}`);
  return Number(rate[1]);
}

if (spawnSync("wrk", ["--version"]).error) {
  console.log("skipped: wrk is not installed (Debian package wrk, listed in .ci/apt-packages.txt)");
  process.exit(0);
}
mkdirSync(DIR, { recursive: true });
for (const [file, text] of Object.entries(SERVERS)) writeFileSync(path.join(DIR, file), text);
const { bun } = setupPeers(["bun"]);
const rows = [await start("node:http (same Node)", NODE, ["hello-node.mjs"]), await start("rt.serve", NODE, ["--", RT, "hello-rt.ts"])];
if (bun) rows.push(await start(`Bun.serve (bun ${bun.version})`, bun.cmd, ["hello-bun.ts"]));
try {
  for (const row of rows) wrk(row.port, 2); // warm-up: JIT, connection pools
  for (let round = 0; round < ROUNDS; round++) for (const row of shuffle([...rows])) row.rates.push(wrk(row.port, SECONDS));
} finally {
  for (const row of rows) row.stop();
}

const [node, rtRow] = rows;
const ratio = (row) => median(row.rates.map((rate, i) => rate / node.rates[i]));
console.log(
  `# rt.serve throughput: wrk -t1 -c${CONNECTIONS}, ${ROUNDS} rounds x ${SECONDS} s, Node ${spawnSync(NODE, ["--version"], { encoding: "utf8" }).stdout.trim()}`,
);
console.log(`${machineLine()}\n`);
console.log("| server | median req/s | min | max | per-round ratio to node:http (median) |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const row of rows) {
  console.log(
    `| ${row.name} | ${median(row.rates).toFixed(0)} | ${Math.min(...row.rates).toFixed(0)} | ${Math.max(...row.rates).toFixed(0)} | ${ratio(row).toFixed(2)}× |`,
  );
}
const r = ratio(rtRow);
console.log(`\n- ${r >= TARGET ? "PASS" : "FAIL"} rt.serve / node:http: ${r.toFixed(2)}× (target ≥ ${TARGET}×)`);
