// Startup benchmark: rt against plain Node, Node's own type stripping, tsx and bun, side by side
// in one run. Every row is a whole process, timed round-robin with per-round ratios (lib.mjs).
//
//   node bench/startup.mjs [--runs N]      (a report: always exits 0)
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ENV, machineLine, measure, NODE, pairwise, printBlock, printTargets, RT, run as runIn, setupPeers, WARMUP, WORK, runsOption } from "./lib.mjs";

const FIX = path.join(WORK, "fixtures");
const RT_CACHE = path.join(WORK, "rt-cache");
const RUNS = runsOption(30);

// ---- fixtures -------------------------------------------------------------------------------
function bigTs(blocks) {
  const out = [];
  for (let i = 0; i < blocks; i++) {
    out.push(
      `export interface Item${i} {`,
      `  id: number;`,
      `  name: string;`,
      `  tags: readonly string[];`,
      `}`,
      `export type Box${i}<T> = { value: T; next?: Box${i}<T> };`,
      `export function make${i}(id: number, name: string): Item${i} {`,
      `  const tags: string[] = [name, String(id)];`,
      `  return { id, name, tags };`,
      `}`,
      `export function score${i}<T extends Item${i}>(item: T, box: Box${i}<number>): number {`,
      `  let total: number = box.value;`,
      `  for (const tag of item.tags) total += tag.length;`,
      `  return total + item.id;`,
      `}`,
      `export class Store${i}<T extends Item${i} = Item${i}> {`,
      `  private items: T[] = [];`,
      `  readonly label: string = "store${i}";`,
      `  add(item: T): this {`,
      `    this.items.push(item);`,
      `    return this;`,
      `  }`,
      `  total(): number { return this.items.reduce((sum: number, it: T) => sum + score${i}(it, { value: 1 }), 0); }`,
      `}`,
    );
  }
  out.push(`export const COUNT: number = ${blocks};`, `export function runAll(): number {`, `  let sum: number = 0;`);
  for (let i = 0; i < blocks; i++) out.push(`  sum += new Store${i}().add(make${i}(${i}, "n${i}")).total();`);
  out.push(`  return sum;`, `}`);
  return out.join("\n") + "\n";
}

async function writeFixtures() {
  mkdirSync(FIX, { recursive: true });
  const files = {
    "package.json": `{ "type": "module" }\n`,
    // A project's own tsconfig.json: rt reads the one nearest each file, and without this it would
    // find the repository's root tsconfig.json above bench/.work (parsing one costs ~15-20 ms CPU).
    "tsconfig.json": `{ "compilerOptions": { "strict": true, "target": "ES2022" } }\n`,
    "hello.ts": `const message: string = "hello from ts";\nconsole.log(message);\n`,
    "hello.js": `const message = "hello from ts";\nconsole.log(message);\n`,
    "big.ts": bigTs(200),
    "main.ts": `import { runAll, COUNT } from "./big.ts";\nconst total: number = runAll();\nconsole.log(\`\${COUNT} blocks, total \${total}\`);\n`,
  };
  // The pre-built JS baseline: the same code through esbuild, importing ./big.js. Without worker
  // threads each call is a short-lived esbuild process, so no idle service outlives the setup.
  process.env.ESBUILD_WORKER_THREADS = "0";
  const { transformSync } = await import("esbuild");
  const js = (name) => transformSync(files[name], { loader: "ts", format: "esm", target: "esnext" }).code;
  files["big.js"] = js("big.ts");
  files["main.js"] = js("main.ts").replace(`"./big.ts"`, `"./big.js"`);
  // The floor of any runtime built on Node's module hooks: the hooks, an import() of the entry, each
  // .ts file's JavaScript handed over as a warm cache would (here read from the .js beside it), and
  // nothing else: no flags, configuration, tsconfig, cache checks, source-mapped stacks or namespace.
  files["floor.cjs"] = [
    `const { readFileSync } = require("node:fs");`,
    `const { pathToFileURL, fileURLToPath } = require("node:url");`,
    `require("node:module").registerHooks({`,
    `  load: (url, context, next) =>`,
    `    url.endsWith(".ts") ? { format: "module", source: readFileSync(fileURLToPath(url).replace(/\\.ts$/, ".js"), "utf8"), shortCircuit: true } : next(url, context),`,
    `});`,
    `import(pathToFileURL(require("node:path").resolve(process.argv[2])).href);`,
  ].join("\n");
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(FIX, name), text);
  return files["big.ts"].split("\n").length - 1;
}

function run(cmd, args, env = ENV) {
  return runIn(cmd, args, { cwd: FIX, env });
}

// ---- rows -----------------------------------------------------------------------------------
function blocks(peers) {
  const warm = { ...ENV, RT_TRANSPILER_CACHE_PATH: RT_CACHE };
  const cold = { ...ENV, RT_TRANSPILER_CACHE_PATH: "0" };
  const block = (title, js, ts, expect) => ({
    title,
    expect,
    rows: [
      { id: "base", name: `node ${js}`, cmd: NODE, args: [js], env: ENV, cwd: FIX },
      { id: "rt-warm", name: `rt ${ts} (warm cache)`, cmd: NODE, args: [RT, ts], env: warm, cwd: FIX },
      { id: "rt-cold", name: `rt ${ts} (cold cache)`, cmd: NODE, args: [RT, ts], env: cold, cwd: FIX },
      { id: "node-ts", name: `node ${ts} (type stripping)`, cmd: NODE, args: [ts], env: ENV, cwd: FIX },
      { id: "floor", name: `node floor.cjs ${ts} (Node's hooks alone)`, cmd: NODE, args: ["floor.cjs", ts], env: ENV, cwd: FIX },
      ...Object.entries(peers).map(([id, p]) => ({ id, name: `${id} ${ts}`, cmd: p.cmd, args: [...p.pre, ts], env: ENV, cwd: FIX })),
    ],
  });
  return [block("hello", "hello.js", "hello.ts", "hello from ts"), block("5k-line module", "main.js", "main.ts", "200 blocks")];
}

async function main() {
  const lines = await writeFixtures();
  const peers = setupPeers(["tsx", "bun"]);
  const all = blocks(peers);
  // Check every command once (output and exit status) and drop any that do not work here.
  rmSync(RT_CACHE, { recursive: true, force: true });
  for (const b of all) {
    b.rows = b.rows.filter((row) => {
      const r = run(row.cmd, row.args, row.env); // also pre-warms the rt cache
      const ok = r.status === 0 && r.stdout.includes(b.expect);
      if (!ok) console.log(`skipped ${row.name}: exit ${r.status}, ${(r.stderr || r.stdout || "").trim().split("\n")[0]}`);
      return ok || row.id === "base";
    });
  }
  const rows = all.flatMap((b) => b.rows);

  console.log(`# rt startup benchmark\n`);
  console.log(
    `node ${run(NODE, ["--version"]).stdout.trim()}, rt ${run(NODE, [RT, "--version"]).stdout.trim()}` +
      Object.entries(peers)
        .map(([id, p]) => `, ${id} ${p.version}`)
        .join(""),
  );
  console.log(machineLine());
  console.log(`${RUNS} rounds after ${WARMUP} warm-up rounds, ${rows.length} commands per round in random order; big.ts has ${lines} lines\n`);

  measure(rows, RUNS);
  for (const b of all) printBlock(b.title, b.rows);

  const [hello, big] = all.map((b) => Object.fromEntries(b.rows.map((r) => [r.id, r])));
  // Issue 32's targets for the warm rows.
  const targets = [
    ["warm `rt hello.ts` vs `node hello.js`", hello["rt-warm"], hello.base, 1.1],
    ["cold `rt hello.ts` vs `node hello.js`", hello["rt-cold"], hello.base, 2.5],
    ["warm `rt main.ts` vs `node main.js`", big["rt-warm"], big.base, 1.15],
    ["warm `rt hello.ts` vs `node hello.ts` (type stripping)", hello["rt-warm"], hello["node-ts"], 0.5],
  ];
  printTargets(targets);
  console.log(`\nFor information:`);
  for (const [b, ts, js] of [
    [hello, "hello.ts", "hello.js"],
    [big, "main.ts", "main.js"],
  ]) {
    if (b.floor && b["rt-warm"])
      console.log(
        `- floor (Node's module hooks serving ${ts}'s JavaScript, nothing else): ${pairwise(b.floor, b.base).toFixed(2)}× node ${js}; warm rt = ${pairwise(b["rt-warm"], b.floor).toFixed(2)}× the floor`,
      );
  }
  for (const id of ["bun", "tsx"]) {
    const name = id;
    for (const [b, ts, js] of [
      [hello, "hello.ts", "hello.js"],
      [big, "main.ts", "main.js"],
    ]) {
      if (!b[id]) continue;
      const vsRt = b["rt-warm"] ? `; warm rt / ${name} = ${pairwise(b["rt-warm"], b[id]).toFixed(2)}×` : "";
      console.log(`- ${name} ${ts}: ${pairwise(b[id], b.base).toFixed(2)}× node ${js}${vsRt}`);
    }
  }
}

await main().catch((error) => {
  console.log(`benchmark aborted: ${error.stack ?? error}`);
});
process.exitCode = 0;
