// rt-language-server: (1) diagnostics latency after an edit, for a 500-script package.json and a
// 300-line rtfig.toml, from the didChange notification to the publishDiagnostics of that version,
// next to the floor of one LSP round trip (a hover on a document the server does not own); (2)
// startup, from spawning the server to the initialize result, next to Node starting and printing
// one byte. Rounds are round-robin in random order, as bench/lib.mjs does; the targets (issue 11)
// are absolute: diagnostics median ≤ 20 ms, startup median ≤ 150 ms.
//
//   node bench/language-server.mjs [--runs N]      (a report: always exits 0)
import { spawn } from "node:child_process";
import path from "node:path";
import { machineLine, median, NODE, pairwise, runsOption, shuffle, WARMUP } from "./lib.mjs";
import { FIXTURES, startServer } from "../server/test/lsp.mjs";

const ROUNDS = runsOption(40);
const PACKAGE_JSON = path.join(FIXTURES, "app", "package.json");
const RTFIG = path.join(FIXTURES, "config", "rtfig.toml");
const UNOWNED = path.join(FIXTURES, "app", "tsconfig.json");

/** 500 scripts of the kinds real projects have: rt run chains, binaries, hooks, files. */
function packageJson() {
  const scripts = [];
  for (let i = 0; i < 500; i++) {
    const kind = i % 5;
    const command = [
      `rt run s${(i + 1) % 500} && rt run s${(i + 2) % 500}`,
      "tsc -b && lsp-tool --out dist/out.js",
      `rt --watch src/main.ts --port ${3000 + i}`,
      `NODE_ENV=test rt --shell=rt run s${(i + 7) % 500} -- --flag`,
      "sh ./scripts/setup.sh --config=src/config.json",
    ][kind];
    scripts.push(`    "${kind === 4 && i % 2 ? "pre" : ""}s${i}": ${JSON.stringify(command)}`);
  }
  return `{\n  "name": "bench",\n  "version": "1.0.0",\n  "scripts": {\n${scripts.join(",\n")}\n  }\n}\n`;
}

/** 300 lines: the top-level keys, a [run] table, and long [define] and [loader] tables. */
function rtfig() {
  const lines = [
    "# rtfig.toml for the benchmark",
    "smol = true",
    "console-depth = 4",
    'unhandled-rejections = "strict"',
    'preload = ["./setup.ts", "./more.ts"]',
    'jsx-runtime = "classic"',
    "",
    "[run]",
    'shell = "rt"',
    "silent = true",
    "",
    "[define]",
  ];
  for (let i = 0; lines.length < 250; i++) lines.push(`"process.env.KEY_${i}" = '"value ${i}"'`);
  lines.push("", "[loader]");
  for (let i = 0; lines.length < 300; i++) lines.push(`".ext${i}" = "${i % 2 ? "text" : "file"}"`);
  return `${lines.join("\n")}\n`;
}

async function latencies(server) {
  const documents = [
    { name: "diagnostics after an edit: package.json, 500 scripts", file: PACKAGE_JSON, text: packageJson(), needle: '"s0": "rt run s1' },
    { name: "diagnostics after an edit: rtfig.toml, 300 lines", file: RTFIG, text: rtfig(), needle: "console-depth = 4" },
  ];
  for (const document of documents) {
    await server.open(document.file, document.text);
    const before = document.text.slice(0, document.text.indexOf(document.needle) + document.needle.length).split("\n");
    document.at = { line: before.length - 1, character: before.at(-1).length };
    document.times = [];
  }
  void server.open(UNOWNED, "{}"); // never answered with diagnostics: not the server's
  const floor = { name: "floor: one LSP round trip (hover on a document the server does not own)", times: [] };
  const rows = [floor, ...documents];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const row of shuffle([...rows])) {
      const started = performance.now();
      if (row === floor) await server.request("textDocument/hover", UNOWNED, { position: { line: 0, character: 0 } });
      else {
        // Type a digit, then delete it: the document stays the same size, each version is new.
        const typed = round % 2 === 0;
        const end = { line: row.at.line, character: row.at.character + (typed ? 0 : 1) };
        await server.change(row.file, [{ range: { start: row.at, end }, text: typed ? "1" : "" }]);
      }
      if (round >= WARMUP) row.times.push(performance.now() - started);
    }
  }
  return rows;
}

/** Spawn to first byte of `node -e` printing one byte: the floor any Node program pays. */
function nodeFloor() {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(NODE, ["-e", "process.stdout.write('x')"]);
    child.stdout.once("data", () => resolve(performance.now() - started));
  });
}

async function startups() {
  const server = { name: "rt-language-server --stdio: spawn to initialize result", times: [] };
  const node = { name: "floor: node -e (spawn to its first output)", times: [] };
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const row of shuffle([server, node])) {
      let ms;
      if (row === node) ms = await nodeFloor();
      else {
        const started = await startServer();
        ms = started.startupMs;
        await started.shutdown();
      }
      if (round >= WARMUP) row.times.push(ms);
    }
  }
  return [node, server];
}

/** Each row with its per-round ratio to the block's first row (its floor): the load-independent figure. */
function table(title, rows) {
  console.log(`## ${title}\n`);
  console.log("| what | min ms | median ms | p90 ms | per-round ratio to the floor (median) |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const row of rows) {
    const sorted = [...row.times].sort((a, b) => a - b);
    console.log(
      `| ${row.name} | ${sorted[0].toFixed(1)} | ${median(sorted).toFixed(1)} | ${sorted[Math.floor(sorted.length * 0.9)].toFixed(1)} | ${pairwise(row, rows[0]).toFixed(2)}× |`,
    );
  }
  console.log();
}

console.log("# rt-language-server benchmark\n");
console.log(`node ${process.version}, ${machineLine()}; ${ROUNDS} rounds after ${WARMUP} warm-up rounds\n`);
const server = await startServer();
const latencyRows = await latencies(server);
await server.shutdown();
table("Diagnostics latency (didChange to publishDiagnostics of that version)", latencyRows);
const startupRows = await startups();
table("Startup", startupRows);
console.log("## Targets (medians)\n");
for (const [row, limit] of [
  [latencyRows[1], 20],
  [latencyRows[2], 20],
  [startupRows[1], 150],
]) {
  const m = median(row.times);
  console.log(`- ${m <= limit ? "PASS" : "FAIL"} ${row.name}: ${m.toFixed(1)} ms (target ≤ ${limit} ms)`);
}
