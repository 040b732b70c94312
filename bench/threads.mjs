// Worker threads and child processes: what one costs under rt (each registers rt's loader through
// rt-runtime/register) against plain Node on the same code as JavaScript, Node's type stripping, tsx and
// bun, side by side in one run (round-robin, per-round ratios: lib.mjs).
//
//   node bench/threads.mjs [--runs N]      (a report: always exits 0)
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ENV, machineLine, measure, median, NODE, printBlock, RT, run, runsOption, setupPeers, WARMUP, WORK } from "./lib.mjs";

const FIX = path.join(WORK, "threads");
const RT_CACHE = path.join(WORK, "rt-cache-threads");
const RUNS = runsOption(20);

// Erasable TypeScript only, so Node's type stripping runs the same files; each .js twin is the
// same code without its annotations.
const FILES = {
  "package.json": `{ "type": "module" }\n`,
  "hello.ts": `const message: string = "hello";\nconsole.log(message);\n`,
  "work.ts": `import { parentPort } from "node:worker_threads";\nconst reply: string = "worker";\nif (parentPort) parentPort.postMessage(reply);\nelse console.log("child");\n`,
  "worker.ts": `import { Worker } from "node:worker_threads";\nconst worker: Worker = new Worker(new URL("./work.ts", import.meta.url));\nworker.on("message", (m: string) => console.log(m));\n`,
  "fork.ts": `import { fork } from "node:child_process";\nfork(new URL("./work.ts", import.meta.url));\n`,
};

function writeFixtures() {
  rmSync(FIX, { recursive: true, force: true });
  mkdirSync(FIX, { recursive: true });
  for (const [name, text] of Object.entries(FILES)) {
    writeFileSync(path.join(FIX, name), text);
    if (name.endsWith(".ts")) writeFileSync(path.join(FIX, name.replace(/\.ts$/, ".js")), text.replace(/: (string|Worker)/g, "").replaceAll(".ts", ".js"));
  }
}

function block(title, name, expect, peers) {
  const warm = { ...ENV, RT_TRANSPILER_CACHE_PATH: RT_CACHE };
  return {
    title,
    expect,
    rows: [
      { id: "base", name: `node ${name}.js`, cmd: NODE, args: [`${name}.js`], cwd: FIX },
      { id: "rt", name: `rt ${name}.ts (warm cache)`, cmd: NODE, args: [RT, `${name}.ts`], env: warm, cwd: FIX },
      { id: "node-ts", name: `node ${name}.ts (type stripping)`, cmd: NODE, args: [`${name}.ts`], cwd: FIX },
      ...Object.entries(peers).map(([id, p]) => ({ id, name: `${id} ${name}.ts`, cmd: p.cmd, args: [...p.pre, `${name}.ts`], cwd: FIX })),
    ],
  };
}

function main() {
  writeFixtures();
  const peers = setupPeers(["tsx", "bun"]);
  const all = [
    block("hello", "hello", "hello", peers),
    block("one worker thread", "worker", "worker", peers),
    block("one forked child", "fork", "child", peers),
  ];
  rmSync(RT_CACHE, { recursive: true, force: true });
  for (const b of all) {
    b.rows = b.rows.filter((row) => {
      const r = run(row.cmd, row.args, { cwd: FIX, env: row.env }); // also pre-warms the rt cache
      const ok = r.status === 0 && r.stdout.includes(b.expect);
      if (!ok) console.log(`skipped ${row.name}: exit ${r.status}, ${(r.stderr || r.stdout || "").trim().split("\n")[0]}`);
      return ok || row.id === "base";
    });
  }
  console.log(`# worker threads and child processes\n`);
  console.log(
    `node ${run(NODE, ["--version"]).stdout.trim()}` +
      Object.entries(peers)
        .map(([id, p]) => `, ${id} ${p.version}`)
        .join(""),
  );
  console.log(machineLine());
  const rows = all.flatMap((b) => b.rows);
  console.log(`${RUNS} rounds after ${WARMUP} warm-up rounds, ${rows.length} commands per round in random order\n`);
  measure(rows, RUNS);
  for (const b of all) printBlock(b.title, b.rows);

  // What the worker or the child adds to a start, by command: its block's median minus hello's.
  const [hello, worker, child] = all.map((b) => Object.fromEntries(b.rows.map((r) => [r.id, r])));
  console.log(`## Added by one worker / one child (median minus the same command's hello)\n`);
  for (const id of Object.keys(hello)) {
    const added = (b) => (b[id] ? `${(median(b[id].times) - median(hello[id].times)).toFixed(1)} ms` : "n/a");
    console.log(`- ${hello[id].name.split(" ")[0]}${id === "node-ts" ? " (type stripping)" : ""}: worker ${added(worker)}, child ${added(child)}`);
  }
}

try {
  main();
} catch (error) {
  console.log(`benchmark aborted: ${error.stack ?? error}`);
}
process.exitCode = 0;
