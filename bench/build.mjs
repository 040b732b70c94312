// Bundler benchmark: `rt build` against esbuild's own CLI (the native binary rt drives) and
// `bun build`, on the same generated 5,000-line TypeScript project, side by side in one run
// (round-robin, per-round ratios: lib.mjs). Every row bundles for Node as ESM with a linked
// source map into a folder of its own. The "node + esbuild API" row is the floor for any bundler
// started through Node: a Node boot plus esbuild's JavaScript API, nothing of rt.
//
//   node bench/build.mjs [--runs N]      (a report: always exits 0)
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ENV, machineLine, measure, NODE, pairwise, printBlock, printTargets, RT, ROOT, run, runsOption, setupPeers, WARMUP, WORK } from "./lib.mjs";

const PROJECT = path.join(WORK, "build-project");
const RUNS = runsOption(20);
const MODULES = 42;

/** 42 modules of ~118 lines (interfaces, generics, classes, enums) and an entry importing them all. */
function writeProject() {
  rmSync(PROJECT, { recursive: true, force: true });
  mkdirSync(path.join(PROJECT, "src"), { recursive: true });
  writeFileSync(path.join(PROJECT, "package.json"), `{ "name": "bench-build", "type": "module" }\n`);
  let lines = 0;
  for (let m = 0; m < MODULES; m++) {
    const out = [`import { COUNT } from "./shared.ts";`, `export enum Kind${m} { A = "a", B = "b" }`];
    for (let i = 0; i < 4; i++) {
      const n = `${m}_${i}`;
      out.push(
        `export interface Item${n} {`,
        `  id: number;`,
        `  name: string;`,
        `  kind: Kind${m};`,
        `  tags: readonly string[];`,
        `}`,
        `export type Box${n}<T> = { value: T; next?: Box${n}<T> };`,
        `export function make${n}(id: number, name: string): Item${n} {`,
        `  const tags: string[] = [name, String(id), Kind${m}.A];`,
        `  return { id, name, kind: Kind${m}.B, tags };`,
        `}`,
        `export function score${n}<T extends Item${n}>(item: T, box: Box${n}<number>): number {`,
        `  let total: number = box.value + COUNT;`,
        `  for (const tag of item.tags) total += tag.length;`,
        `  return total + item.id;`,
        `}`,
        `export class Store${n}<T extends Item${n} = Item${n}> {`,
        `  private items: T[] = [];`,
        `  readonly label: string = "store${n}";`,
        `  add(item: T): this {`,
        `    this.items.push(item);`,
        `    return this;`,
        `  }`,
        `  total(): number {`,
        `    return this.items.reduce((sum: number, it: T) => sum + score${n}(it, { value: 1 }), 0);`,
        `  }`,
        `}`,
      );
    }
    out.push(`export function run${m}(): number {`, `  let sum = 0;`);
    for (let i = 0; i < 4; i++) out.push(`  sum += new Store${m}_${i}().add(make${m}_${i}(${i}, "n${i}")).total();`);
    out.push(`  return sum;`, `}`);
    writeFileSync(path.join(PROJECT, "src", `mod${m}.ts`), out.join("\n") + "\n");
    lines += out.length;
  }
  writeFileSync(path.join(PROJECT, "src", "shared.ts"), `export const COUNT: number = ${MODULES};\n`);
  const entry = [];
  for (let m = 0; m < MODULES; m++) entry.push(`import { run${m} } from "./mod${m}.ts";`);
  entry.push(`let total: number = 0;`);
  for (let m = 0; m < MODULES; m++) entry.push(`total += run${m}();`);
  entry.push("console.log(`total ${total}`);");
  writeFileSync(path.join(PROJECT, "src", "index.ts"), entry.join("\n") + "\n");
  return lines + entry.length + 1;
}

function main() {
  const lines = writeProject();
  const peers = setupPeers(["bun"]);
  const esbuildBin = path.join(ROOT, "node_modules", ".bin", "esbuild");
  const nodeTarget = `node${process.versions.node.split(".")[0]}`;
  const apiScript = `require(${JSON.stringify(path.join(ROOT, "node_modules", "esbuild"))}).build({ entryPoints: ["src/index.ts"], bundle: true, outdir: "out-api", platform: "node", format: "esm", target: "${nodeTarget}", sourcemap: "linked", logLevel: "warning" })`;
  const rows = [
    {
      id: "esbuild",
      name: "esbuild CLI",
      cmd: esbuildBin,
      args: [
        "src/index.ts",
        "--bundle",
        "--outdir=out-esbuild",
        "--platform=node",
        "--format=esm",
        `--target=${nodeTarget}`,
        "--sourcemap=linked",
        "--log-level=warning",
      ],
      out: "out-esbuild/index.js",
    },
    { id: "rt", name: "rt build", cmd: NODE, args: [RT, "build", "src/index.ts", "--outdir", "out-rt", "--target", "node"], out: "out-rt/index.js" },
    { id: "api", name: "node + esbuild API", cmd: NODE, args: ["-e", apiScript], out: "out-api/index.js" },
    { id: "node", name: "node -e 0 (Node's boot alone)", cmd: NODE, args: ["-e", "0"], out: "out-esbuild/index.js" },
    ...(peers.bun
      ? [
          {
            id: "bun",
            name: `bun build (${peers.bun.version})`,
            cmd: peers.bun.cmd,
            args: ["build", "src/index.ts", "--outdir", "out-bun", "--target", "node", "--sourcemap=linked"],
            out: "out-bun/index.js",
          },
        ]
      : []),
  ].map((row) => ({ ...row, cwd: PROJECT, env: ENV }));

  // Check every command once: it exits 0 and its bundle runs under node.
  const working = rows.filter((row) => {
    const r = run(row.cmd, row.args, { cwd: PROJECT });
    const output = existsSync(path.join(PROJECT, row.out)) ? run(NODE, [row.out], { cwd: PROJECT }).stdout.trim() : "";
    const ok = r.status === 0 && output.startsWith("total ");
    if (!ok) console.log(`skipped ${row.name}: exit ${r.status}, ${(r.stderr || r.stdout || "").trim().split("\n")[0]}; bundle printed "${output}"`);
    return ok;
  });

  console.log(`# rt build benchmark\n`);
  console.log(
    `node ${process.version}, rt ${run(NODE, [RT, "--version"]).stdout.trim()}, esbuild ${run(esbuildBin, ["--version"]).stdout.trim()}` +
      (peers.bun ? `, bun ${peers.bun.version}` : ""),
  );
  console.log(machineLine());
  console.log(
    `${RUNS} rounds after ${WARMUP} warm-up rounds, ${working.length} commands per round in random order; the project has ${MODULES + 2} files, ${lines} lines\n`,
  );
  measure(working, RUNS);
  printBlock("bundle a 5,000-line project (ESM for Node, linked source map)", working);
  const by = Object.fromEntries(working.map((row) => [row.id, row]));
  printTargets([["`rt build` vs esbuild's CLI", by.rt, by.esbuild, 1.2]]);
  console.log(`\nFor information:`);
  if (by.api) console.log(`- rt build / (node + esbuild API): ${pairwise(by.rt, by.api).toFixed(2)}× (what rt adds to a Node-hosted esbuild)`);
  if (by.node) console.log(`- Node's boot alone / esbuild CLI: ${pairwise(by.node, by.esbuild).toFixed(2)}× (the floor of any bundler started through Node)`);
  if (by.bun) console.log(`- rt build / bun build: ${pairwise(by.rt, by.bun).toFixed(2)}×`);
}

try {
  main();
} catch (error) {
  console.log(`benchmark aborted: ${error.stack ?? error}`);
}
process.exitCode = 0;
