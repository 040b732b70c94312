// The compatibility suite's one engine, shared by test/compat.test.mjs (rt only, under `npm test`)
// and test/compat/compare.mjs (`npm run compat`: rt, bun, tsx and node side by side).
//
// A case is a small .ts/.tsx/.cts file under untyped/ (this package, no "type"), module/
// (a "type": "module" package) or commonjs/ (a "type": "commonjs" package) whose `// expect: `
// comment lines are its whole expected stdout.
// Every case runs with this directory as its working directory, so the one tsconfig.json here
// applies under every runtime. A case that needs a project of its own (a tsconfig, node_modules
// fixtures) or a command line says so: `// cwd: projects/x` (relative to this directory) and
// `// args: --tsconfig t.json main.ts` (the runtime's arguments there, instead of the case file).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const COMPAT = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(COMPAT, "../..");
const NODE_MODULES = path.join(COMPAT, "node_modules");
const STAMP = path.join(NODE_MODULES, ".compat-lock-sha256");
const CASE_DIRS = ["untyped", "module", "commonjs"];
const CASE_FILE = /\.(ts|tsx|cts|mts)$/;
const CASE_TIMEOUT_MS = 60_000;

// The project's Node 24, whatever node started this script (the system one may be older).
const projectNode = path.join(ROOT, "node_modules/.bin/node");
export const NODE = existsSync(projectNode) ? projectNode : process.execPath;

/** Every case: { name: "module/lodash-named.ts", file, expected }. */
export function listCases() {
  return CASE_DIRS.flatMap((dir) =>
    readdirSync(path.join(COMPAT, dir))
      .filter((f) => CASE_FILE.test(f))
      .sort()
      .map((f) => {
        const file = path.join(COMPAT, dir, f);
        const lines = readFileSync(file, "utf8").split("\n");
        const tagged = (tag) => lines.filter((line) => line.startsWith(`// ${tag}: `)).map((line) => line.slice(`// ${tag}: `.length).trimEnd());
        const expected = tagged("expect");
        if (expected.length === 0) throw new Error(`${dir}/${f}: no "// expect: " line`);
        const [cwd] = tagged("cwd");
        const [args] = tagged("args");
        return {
          name: `${dir}/${f}`,
          file,
          expected: expected.join("\n"),
          cwd: cwd ? path.join(COMPAT, cwd) : COMPAT,
          args: args ? args.split(" ") : [file],
        };
      }),
  );
}

/**
 * `npm ci` into test/compat/node_modules, skipped while the lockfile is the one last installed.
 * Returns undefined on success, else the reason (npm's last line).
 */
export function install() {
  const lock = readFileSync(path.join(COMPAT, "package-lock.json"));
  const sha = createHash("sha256").update(lock).digest("hex");
  if (existsSync(STAMP) && readFileSync(STAMP, "utf8") === sha) return undefined;
  const env = { ...process.env, PATH: `${path.dirname(NODE)}${path.delimiter}${process.env.PATH ?? ""}` };
  const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: COMPAT, env, encoding: "utf8", timeout: 600_000 });
  if (npm.status !== 0) return `npm ci failed in ${COMPAT}: ${(npm.error?.message ?? npm.stderr ?? "").trim().split("\n").pop()}`;
  writeFileSync(STAMP, sha);
  return undefined;
}

function bunBinary() {
  const candidates = [path.join(NODE_MODULES, "bun/bin/bun.exe")];
  const oven = path.join(NODE_MODULES, "@oven");
  if (existsSync(oven)) for (const dir of readdirSync(oven)) candidates.push(path.join(oven, dir, "bin/bun"));
  // Without its postinstall, bun.exe may be a placeholder: take the first binary that answers.
  return candidates.find((file) => existsSync(file) && spawnSync(file, ["--version"]).status === 0);
}

/**
 * The runtimes a case can run under: { id: { cmd, pre, version } | { missing: reason } }.
 * bun and tsx come from this directory's lockfile; node is the project's Node 24 (type stripping).
 * `rtBin` runs another build of rt (e.g. a helper's worktree) on these cases.
 */
export function runtimes({ rtBin = path.join(ROOT, "runtime/bin/rt.cjs") } = {}) {
  const version = (cmd, args) => spawnSync(cmd, args, { encoding: "utf8" }).stdout?.trim() ?? "?";
  const rt = path.resolve(rtBin);
  const tsx = path.join(NODE_MODULES, "tsx/dist/cli.mjs");
  const bun = bunBinary();
  const pkgVersion = (name) => JSON.parse(readFileSync(path.join(NODE_MODULES, name, "package.json"), "utf8")).version;
  return {
    rt: { cmd: NODE, pre: [rt], version: version(NODE, [rt, "--version"]) },
    bun: bun ? { cmd: bun, pre: [], version: version(bun, ["--version"]) } : { missing: "no working bun binary in test/compat/node_modules" },
    tsx: existsSync(tsx) ? { cmd: NODE, pre: [tsx], version: pkgVersion("tsx") } : { missing: "tsx not installed in test/compat/node_modules" },
    node: { cmd: NODE, pre: [], version: version(NODE, ["--version"]) },
  };
}

/** The environment every case runs with: nothing from the caller that changes module loading or colour. */
function caseEnv() {
  const env = { ...process.env, PATH: `${path.dirname(NODE)}${path.delimiter}${process.env.PATH ?? ""}`, NO_COLOR: "1" };
  // NODE_TEST_CONTEXT: a `--test` case under `node --test` would report to that runner, not print.
  for (const key of ["NODE_OPTIONS", "NODE_COMPILE_CACHE", "FORCE_COLOR", "DEBUG", "TSX_TSCONFIG_PATH", "NODE_TEST_CONTEXT"]) delete env[key];
  return env;
}

/**
 * Runs one case under one runtime: { ok, stdout, stderr, code, reason } where reason (on failure)
 * is one line: the first line of the error, or what the output was instead of the expected one.
 */
export function runCase(runtime, c) {
  return new Promise((resolve) => {
    const child = spawn(runtime.cmd, [...runtime.pre, ...c.args], { cwd: c.cwd, env: caseEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), CASE_TIMEOUT_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const actual = stdout
        .split("\n")
        .map((l) => l.trimEnd())
        .join("\n")
        .trim();
      const ok = code === 0 && actual === c.expected;
      resolve({ ok, stdout, stderr, code, reason: ok ? undefined : failureReason({ code, signal, actual, stderr, expected: c.expected }) });
    });
  });
}

function failureReason({ code, signal, actual, stderr, expected }) {
  if (signal) return `killed by ${signal} after ${CASE_TIMEOUT_MS / 1000} s`;
  if (code !== 0) return errorLine(stderr) ?? `exit ${code} with no error output`;
  return `printed ${JSON.stringify(actual.slice(0, 200))}, expected ${JSON.stringify(expected)}`;
}

/** The line of stderr that names the error (Node prints the source line and a caret above it). */
export function errorLine(stderr) {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => /^(\w*Error|Error \[|SyntaxError|TypeError|ReferenceError|error:)/.test(l)) ?? lines[0];
}

/** Runs `fn` over `items` with at most `limit` at a time, results in input order. */
export async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
