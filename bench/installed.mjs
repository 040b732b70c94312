// rt as a user installed it: rt-runtime packed and published to a local registry (verdaccio,
// proxying the npm registry for its dependencies and tsx), then `npm i -D rt-runtime` and
// `npm i -D tsx` in fresh projects. `node_modules/.bin/rt hello.ts` against
// `node_modules/.bin/tsx hello.ts` and `node hello.js` in the same rounds, once with Node 24 first
// on PATH (rt runs on it) and once with the machine's older Node first (rt runs on its own Node,
// fetched before timing; through the compiled front it is started directly), beside the repository's rt on the same file (bench/startup.mjs's row).
// Also the size of each install.
//
//   node bench/installed.mjs [--runs N]      (a report: always exits 0)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPlatforms, findGo, platformPackages } from "../runtime/native/build.mjs";
import { startRegistry } from "../test/support/registry.mjs";
import { ENV, machineLine, measure, NODE, pairwise, printBlock, RT, ROOT, run, runsOption } from "./lib.mjs";

const RUNS = runsOption(20);
const OLD_NODE_DIR = "/usr/bin";
const root = mkdtempSync(path.join(os.tmpdir(), "rt-bench-installed-"));
const registry = await startRegistry({ uplink: "https://registry.npmjs.org/" });
try {
  const npmrc = path.join(root, "npmrc");
  writeFileSync(npmrc, `registry=${registry.url}/\n${registry.url.replace(/^https?:/, "")}/:_authToken=${registry.token}\n`);
  // rt's cache (its transpiler cache, and its own Node for the old-Node block) is the bench's own.
  const env = {
    ...ENV,
    npm_config_userconfig: npmrc,
    npm_config_registry: `${registry.url}/`,
    npm_config_fund: "false",
    npm_config_audit: "false",
    XDG_CACHE_HOME: path.join(root, "cache"),
  };
  delete env.NODE_OPTIONS;
  const npm = (args, cwd) => execFileSync("npm", args, { cwd, env, stdio: "pipe" });
  npm(["publish", "--ignore-scripts"], path.join(ROOT, "runtime"));
  // The compiled front's platform packages, as a release publishes them (without Go: none, and rt
  // starts through Node, as on a platform without a package).
  if (findGo()) {
    buildPlatforms();
    for (const { dir } of platformPackages()) npm(["publish", "--ignore-scripts"], dir);
  }

  const project = (name, pkg) => {
    const dir = path.join(root, name);
    mkdirSync(dir);
    writeFileSync(path.join(dir, "package.json"), `{ "name": "${name}", "private": true, "type": "module" }\n`);
    writeFileSync(path.join(dir, "tsconfig.json"), `{ "compilerOptions": { "strict": true, "target": "ES2022" } }\n`);
    writeFileSync(path.join(dir, "hello.ts"), `const message: string = "hello from ts";\nconsole.log(message);\n`);
    writeFileSync(path.join(dir, "hello.js"), `const message = "hello from ts";\nconsole.log(message);\n`);
    npm(["install", "--save-dev", pkg], dir);
    const size = Number(execFileSync("du", ["-sk", path.join(dir, "node_modules")], { encoding: "utf8" }).split("\t")[0]) * 1024;
    return { dir, size };
  };
  const rt = project("uses-rt", "rt-runtime");
  const tsx = project("uses-tsx", "tsx");

  const oldEnv = { ...env, PATH: `${OLD_NODE_DIR}${path.delimiter}${env.PATH}` };
  const oldNode = path.join(OLD_NODE_DIR, "node");
  const block = (title, rowEnv, node, withRepo) => ({
    title,
    rows: [
      { id: "base", name: `node hello.js (${run(node, ["--version"], { cwd: root }).stdout.trim()})`, cmd: node, args: ["hello.js"], env: rowEnv, cwd: rt.dir },
      { id: "rt", name: "node_modules/.bin/rt hello.ts", cmd: path.join(rt.dir, "node_modules/.bin/rt"), args: ["hello.ts"], env: rowEnv, cwd: rt.dir },
      ...(withRepo
        ? [{ id: "repo", name: "the repository's rt hello.ts (bench/startup.mjs's row)", cmd: NODE, args: [RT, "hello.ts"], env: rowEnv, cwd: rt.dir }]
        : []),
      { id: "tsx", name: "node_modules/.bin/tsx hello.ts", cmd: path.join(tsx.dir, "node_modules/.bin/tsx"), args: ["hello.ts"], env: rowEnv, cwd: tsx.dir },
    ],
  });
  const blocks = [
    block("Node 24 first on PATH: rt runs on it", env, NODE, true),
    block("the machine's Node first: rt runs on its own", oldEnv, oldNode, false),
  ];
  // Each command once: output checked, rt's transpiler cache warmed, its own Node fetched.
  for (const row of blocks.flatMap((b) => b.rows)) {
    const result = run(row.cmd, row.args, { cwd: row.cwd, env: row.env });
    if (result.status !== 0 || result.stdout !== "hello from ts\n") throw new Error(`${row.name}: exit ${result.status}\n${result.stdout}${result.stderr}`);
  }

  console.log(`# rt installed from a registry, against tsx and node\n`);
  console.log(`rt ${run(path.join(rt.dir, "node_modules/.bin/rt"), ["--version"], { cwd: root, env: oldEnv }).stdout.trim()} (with the machine's Node first)`);
  console.log(machineLine());
  const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
  console.log(
    `install size (node_modules): rt-runtime ${mb(rt.size)}, tsx ${mb(tsx.size)}; rt's own Node (fetched on an old Node only): ${mb(Number(execFileSync("du", ["-sk", path.join(root, "cache", "rt", "node")], { encoding: "utf8" }).split("\t")[0]) * 1024)}`,
  );
  console.log(`${RUNS} rounds after the warm-up rounds, commands in random order per round\n`);
  for (const b of blocks) {
    measure(b.rows, RUNS);
    printBlock(b.title, b.rows);
  }
  console.log(`## Per-round ratios (median)\n`);
  for (const b of blocks) {
    const rows = Object.fromEntries(b.rows.map((row) => [row.id, row]));
    const repo = rows.repo
      ? `; the repository's rt / node ${pairwise(rows.repo, rows.base).toFixed(2)}×, installed rt / repository's rt ${pairwise(rows.rt, rows.repo).toFixed(2)}×`
      : "";
    console.log(`- ${b.title}: rt / node ${pairwise(rows.rt, rows.base).toFixed(2)}×, rt / tsx ${pairwise(rows.rt, rows.tsx).toFixed(2)}×${repo}`);
  }
} finally {
  registry.stop();
  rmSync(root, { recursive: true, force: true });
}
