// Script-runner benchmark: `rt run` against npm, `node --run` and bun, side by side in one run,
// on three generated projects: a script that does nothing (`"noop": "true"`), listing a package
// with 200 scripts, and one script in 50 workspace packages. `rt` is what node_modules/.bin/rt
// starts: the compiled front (runtime/native/) once built, which runs scripts and lists them
// itself and hands the rest to the Node CLI; the Node CLI started directly is measured beside it (and a file run,
// `rt hello.ts`, which pays the front's exec). Every row is a whole process, timed
// round-robin with per-round ratios (lib.mjs); npm runs on the project's Node 24, like rt.
//
//   node bench/scripts.mjs [--runs N]      (a report: always exits 0)
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  cpuDifference,
  FRONT,
  machineLine,
  measure,
  measureCpu,
  NODE,
  pairwise,
  pairwiseDifference,
  printBlock,
  printTargets,
  RT,
  run,
  setupPeers,
  WARMUP,
  WORK,
  runsOption,
} from "./lib.mjs";

const FIX = path.join(WORK, "scripts");
const PACKAGES = 50;
const SCRIPTS = 200;
const RUNS = runsOption(30);

function writeJson(file, value) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function writeFixtures() {
  rmSync(FIX, { recursive: true, force: true });
  writeJson(path.join(FIX, "noop", "package.json"), { name: "noop", version: "1.0.0", scripts: { noop: "true" } });
  writeFileSync(path.join(FIX, "noop", "hello.ts"), `const message: string = "hello from ts";\nconsole.log(message);\n`);
  const scripts = Object.fromEntries(Array.from({ length: SCRIPTS }, (_, i) => [`task-${i + 1}`, `node scripts/task.js --step ${i + 1} --verbose`]));
  writeJson(path.join(FIX, "many", "package.json"), { name: "many", version: "1.0.0", scripts });
  writeJson(path.join(FIX, "mono", "package.json"), { name: "mono", private: true, workspaces: ["packages/*"] });
  for (let i = 1; i <= PACKAGES; i++) {
    const name = `pkg-${String(i).padStart(2, "0")}`;
    writeJson(path.join(FIX, "mono", "packages", name, "package.json"), { name, version: "1.0.0", scripts: { noop: "true" } });
  }
}

// The floor of any runner built on Node: start Node, load child_process, spawn bash and wait for it
// (once, or for each of the 50 packages with its output piped), with nothing else. No runner on
// Node can beat these; they show how much of rt's time is rt's.
const FLOOR_ONE = `require("child_process").spawn("bash", ["-c", "true"], { stdio: "inherit", detached: true }).on("close", (c) => (process.exitCode = c))`;
const FLOOR_MANY =
  `const { spawn } = require("child_process"); const fs = require("fs");` +
  `for (const dir of fs.readdirSync("packages")) { const c = spawn("bash", ["-c", "true"], { cwd: "packages/" + dir, stdio: ["ignore", "pipe", "pipe"], detached: true });` +
  ` c.stdout.resume(); c.stderr.resume(); c.on("close", (code) => process.stdout.write(dir + " noop: Exited with code " + code + "\\n")); }`;

function blocks(peers) {
  const bun = peers.bun;
  const row = (id, name, cmd, args, cwd) => ({ id, name, cmd, args, cwd: path.join(FIX, cwd) });
  // `rt ...`: the front when built; the Node CLI as `node bin/rt.cjs ...` (what RT_NATIVE=0 execs).
  const rt = (id, name, args, cwd) => (FRONT ? row(id, name, FRONT, args, cwd) : row(id, name, NODE, [RT, ...args], cwd));
  const nodeCli = (id, name, args, cwd) => (FRONT ? [row(id, `${name} (Node CLI, no front)`, NODE, [RT, ...args], cwd)] : []);
  return [
    {
      title: 'a script that does nothing (`"noop": "true"`)',
      rows: [
        row("base", "npm run noop", "npm", ["run", "noop"], "noop"),
        rt("rt", "rt run noop", ["run", "noop"], "noop"),
        ...nodeCli("rt-node", "rt run noop", ["run", "noop"], "noop"),
        row("node", "node --run noop", NODE, ["--run", "noop"], "noop"),
        row("floor", "floor: node spawning `bash -c true`, nothing else", NODE, ["-e", FLOOR_ONE], "noop"),
        ...(bun ? [row("bun", "bun run noop", bun.cmd, ["run", "noop"], "noop")] : []),
      ],
    },
    {
      title: `listing a package with ${SCRIPTS} scripts`,
      rows: [
        row("base", "npm run", "npm", ["run"], "many"),
        rt("rt", "rt run", ["run"], "many"),
        ...nodeCli("rt-node", "rt run", ["run"], "many"),
        ...(bun ? [row("bun", "bun run", bun.cmd, ["run"], "many")] : []),
      ],
    },
    {
      title: `one script in ${PACKAGES} workspace packages`,
      rows: [
        row("base", "npm run --workspaces noop", "npm", ["run", "--workspaces", "noop"], "mono"),
        rt("rt", "rt --filter '*' noop", ["--filter", "*", "noop"], "mono"),
        ...nodeCli("rt-node", "rt --filter '*' noop", ["--filter", "*", "noop"], "mono"),
        rt("rt-workspaces", "rt run --workspaces noop", ["run", "--workspaces", "noop"], "mono"),
        row("floor", `floor: node spawning ${PACKAGES} \`bash -c true\`, nothing else`, NODE, ["-e", FLOOR_MANY], "mono"),
        ...(bun ? [row("bun", "bun --filter '*' noop", bun.cmd, ["--filter", "*", "noop"], "mono")] : []),
      ],
    },
    ...(FRONT
      ? [
          {
            title: "a file, `rt hello.ts` (warm cache): what the front's hand-over costs",
            rows: [row("base", "rt hello.ts (Node CLI, no front)", NODE, [RT, "hello.ts"], "noop"), rt("rt", "rt hello.ts", ["hello.ts"], "noop")],
          },
        ]
      : []),
  ];
}

function main() {
  writeFixtures();
  const peers = setupPeers(["bun"]);
  const all = blocks(peers);
  // Check every command once and drop any that does not work here (the baselines must).
  for (const b of all) {
    b.rows = b.rows.filter((row) => {
      const r = run(row.cmd, row.args, { cwd: row.cwd });
      if (r.status !== 0) console.log(`skipped ${row.name}: exit ${r.status}, ${(r.error?.message ?? r.stderr ?? "").trim().split("\n")[0]}`);
      return r.status === 0 || row.id === "base";
    });
  }
  const rows = all.flatMap((b) => b.rows);

  console.log(`# rt script-runner benchmark\n`);
  console.log(
    `node ${run(NODE, ["--version"]).stdout.trim()}, rt ${run(NODE, [RT, "--version"]).stdout.trim()}, npm ${run("npm", ["--version"]).stdout.trim()}` +
      Object.entries(peers)
        .map(([id, p]) => `, ${id} ${p.version}`)
        .join(""),
  );
  console.log(machineLine());
  console.log(`${RUNS} rounds after ${WARMUP} warm-up rounds, ${rows.length} commands per round in random order\n`);

  measure(rows, RUNS);
  for (const b of all) printBlock(b.title, b.rows);

  const [noop, listing, workspaces, file] = all.map((b) => Object.fromEntries(b.rows.map((r) => [r.id, r])));
  printTargets([
    ["`rt run noop` vs `npm run noop`", noop.rt, noop.base, 0.25],
    ["`rt run noop` vs `node --run noop` (issue 22)", noop.rt, noop.node, 1.3],
    [`\`rt run\` listing ${SCRIPTS} scripts vs \`npm run\``, listing.rt, listing.base, 0.25],
    [`\`rt --filter '*' noop\` over ${PACKAGES} packages vs \`npm run --workspaces noop\``, workspaces.rt, workspaces.base, 0.5],
    [`\`rt --filter '*' noop\` over ${PACKAGES} packages vs \`bun --filter '*' noop\` (issue 32)`, workspaces.rt, workspaces.bun, 1.2],
  ]);
  if (file) {
    const added = pairwiseDifference(file.rt, file.base);
    console.log(
      `- ${added <= 2 ? "PASS" : "FAIL"} \`rt hello.ts\` through the front vs the Node CLI: ${added >= 0 ? "+" : ""}${added.toFixed(2)} ms wall (target ≤ +2 ms)`,
    );
    const fileRows = [file.base, file.rt];
    if (measureCpu(fileRows, RUNS)) {
      const cpu = cpuDifference(file.rt, file.base);
      console.log(
        `- ${cpu <= 2 ? "PASS" : "FAIL"} \`rt hello.ts\` through the front vs the Node CLI: ${cpu >= 0 ? "+" : ""}${cpu.toFixed(2)} ms CPU (perf task-clock, ${RUNS} rounds; target ≤ +2 ms)`,
      );
    }
    const listed = pairwise(listing.rt, listing["rt-node"]);
    const listedDifference = pairwiseDifference(listing.rt, listing["rt-node"]);
    console.log(
      `- ${listed < 1 ? "PASS" : "FAIL"} \`rt run\` listing through the front (which lists itself) vs the Node CLI: ${listed.toFixed(2)}× (${listedDifference >= 0 ? "+" : ""}${listedDifference.toFixed(2)} ms; target: faster, < 1×)`,
    );
  }
  console.log(`\nFor information:`);
  if (noop["rt-node"]) console.log(`- \`rt run noop\`: the front is ${pairwise(noop.rt, noop["rt-node"]).toFixed(2)}× the Node CLI`);
  if (workspaces["rt-node"]) console.log(`- \`rt --filter '*' noop\`: the front is ${pairwise(workspaces.rt, workspaces["rt-node"]).toFixed(2)}× the Node CLI`);
  for (const [b, what] of [
    [noop, "run noop"],
    [listing, "listing"],
    [workspaces, `--filter '*' noop`],
  ]) {
    for (const id of ["node", "bun"]) if (b[id] && b.rt) console.log(`- rt ${what}: ${pairwise(b.rt, b[id]).toFixed(2)}× ${b[id].name}`);
    if (b.floor)
      console.log(`- ${b.floor.name}: ${pairwise(b.floor, b.base).toFixed(2)}× ${b.base.name}; rt is ${pairwise(b.rt, b.floor).toFixed(2)}× this floor`);
  }
}

try {
  main();
} catch (error) {
  console.log(`benchmark aborted: ${error.stack ?? error}`);
}
process.exitCode = 0;
