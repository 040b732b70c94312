// The transpiler cache: content-addressed, never stale, atomic under concurrency, bounded, and
// a hit never loads esbuild.
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES, rt, rtAsync, tempDir } from "./rt.mjs";

function entries(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith("."))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function project(t) {
  const dir = tempDir(t);
  cpSync(path.join(FIXTURES, "cache"), dir, { recursive: true });
  return { dir, cache: path.join(dir, ".cache") };
}

test("a miss transpiles with esbuild and stores the result; a hit does not load esbuild", (t) => {
  const { dir, cache } = project(t);
  const env = { RT_TRANSPILER_CACHE_PATH: cache };
  assert.equal(rt(["probe.ts"], { cwd: dir, env }).stdout, "hi esbuild-loaded\n");
  assert.equal(entries(cache).length, 1);
  assert.equal(rt(["probe.ts"], { cwd: dir, env }).stdout, "hi esbuild-not-loaded\n");
});

test("the key covers the source and the options: an edit or another --define is never served stale", (t) => {
  const { dir, cache } = project(t);
  const env = { RT_TRANSPILER_CACHE_PATH: cache };
  rt(["probe.ts"], { cwd: dir, env });
  assert.equal(rt(["--define", 'GREETING:"hello"', "probe.ts"], { cwd: dir, env }).stdout, "hello esbuild-loaded\n");
  assert.equal(rt(["--define", 'GREETING:"hello"', "probe.ts"], { cwd: dir, env }).stdout, "hello esbuild-not-loaded\n");
  writeFileSync(path.join(dir, "probe.ts"), 'console.log("edited");\n');
  assert.equal(rt(["probe.ts"], { cwd: dir, env }).stdout, "edited\n");
  assert.equal(entries(cache).length, 3);
});

test("RT_TRANSPILER_CACHE_PATH=0 disables the cache", (t) => {
  const { dir } = project(t);
  for (let i = 0; i < 2; i++) {
    assert.equal(rt(["probe.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: "0" } }).stdout, "hi esbuild-loaded\n");
  }
});

test("the default location is $XDG_CACHE_HOME/rt/transpiler; an empty RT_TRANSPILER_CACHE_PATH disables it", (t) => {
  const { dir } = project(t);
  const xdg = path.join(dir, "xdg");
  // An undefined value leaves the variable out of the child's environment.
  assert.equal(rt(["probe.ts"], { cwd: dir, env: { XDG_CACHE_HOME: xdg, RT_TRANSPILER_CACHE_PATH: undefined } }).stdout, "hi esbuild-loaded\n");
  assert.equal(entries(path.join(xdg, "rt", "transpiler")).length, 1);
  const other = path.join(dir, "xdg2");
  assert.equal(rt(["probe.ts"], { cwd: dir, env: { XDG_CACHE_HOME: other, RT_TRANSPILER_CACHE_PATH: "" } }).stdout, "hi esbuild-loaded\n");
  assert.throws(() => statSync(path.join(other, "rt", "transpiler")), /ENOENT/);
});

test("many rt processes starting at once share one cache safely", async (t) => {
  const { dir, cache } = project(t);
  for (let i = 0; i < 6; i++) writeFileSync(path.join(dir, `m${i}.ts`), `export const n${i}: number = ${i};\n`);
  writeFileSync(
    path.join(dir, "all.ts"),
    `${[0, 1, 2, 3, 4, 5].map((i) => `import { n${i} } from "./m${i}";`).join("\n")}\nconsole.log(${[0, 1, 2, 3, 4, 5].map((i) => `n${i}`).join(" + ")});\n`,
  );
  const runs = await Promise.all(Array.from({ length: 8 }, () => rtAsync(["all.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: cache } })));
  for (const run of runs) assert.deepEqual([run.code, run.stdout, run.stderr], [0, "15\n", ""]);
  const files = entries(cache);
  assert.equal(files.length, 7, "one entry per module, no temp files left");
  assert.ok(files.every((file) => !file.endsWith(".tmp")));
  assert.equal(rt(["all.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: cache } }).stdout, "15\n");
});

test("the cache stays under RT_TRANSPILER_CACHE_MAX_BYTES, dropping the oldest entries", (t) => {
  const { dir, cache } = project(t);
  const old = Date.now() / 1000 - 3600;
  mkdirSync(path.join(cache, "ff"), { recursive: true });
  for (let i = 0; i < 20; i++) {
    const file = path.join(cache, "ff", `old${i}`);
    writeFileSync(file, `commonjs\n${"x".repeat(10_000)}`);
    utimesSync(file, old + i, old + i);
  }
  const result = rt(["probe.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: cache, RT_TRANSPILER_CACHE_MAX_BYTES: "50000" } });
  assert.equal(result.stdout, "hi esbuild-loaded\n");
  const files = entries(cache);
  const total = files.reduce((sum, file) => sum + statSync(file).size, 0);
  assert.ok(total <= 50_000, `total ${total} bytes`);
  assert.ok(!files.includes(path.join(cache, "ff", "old0")), "the oldest entry went first");
  assert.ok(files.includes(path.join(cache, "ff", "old19")), "the newest old entry stayed");
  assert.equal(rt(["probe.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: cache } }).stdout, "hi esbuild-not-loaded\n", "the fresh entry stayed");
});

test("an unusable cache runs the program uncached, with one warning line", (t) => {
  const { dir, cache } = project(t);
  writeFileSync(path.join(dir, "two.ts"), 'import "./probe.ts";\nimport "./probe2.ts";\n');
  writeFileSync(path.join(dir, "probe2.ts"), "export const second: number = 2;\n");
  const warning = (where, code) =>
    `rt: warning: transpiler cache ${where} is unusable (${code}); running uncached (RT_TRANSPILER_CACHE_PATH=0 runs uncached without this warning)\n`;
  // Under a file: mkdir fails with ENOTDIR, and so did the clean-up of the temp file.
  const underFile = path.join(dir, "probe.ts", "sub");
  assert.deepEqual(rt(["two.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: underFile } }), {
    code: 0,
    signal: null,
    stdout: "hi esbuild-loaded\n",
    stderr: warning(underFile, "ENOTDIR"),
  });
  // Shard directories replaced by files (every shard, so each miss meets one): ENOTDIR from the
  // temp file's write and its clean-up; one warning for the run, however many modules miss.
  assert.equal(rt(["probe.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: cache } }).code, 0);
  for (let i = 0; i < 256; i++) {
    const shard = path.join(cache, i.toString(16).padStart(2, "0"));
    rmSync(shard, { recursive: true, force: true });
    writeFileSync(shard, "");
  }
  assert.deepEqual(rt(["two.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: cache } }), {
    code: 0,
    signal: null,
    stdout: "hi esbuild-loaded\n",
    stderr: warning(cache, "ENOTDIR"),
  });
  // Under /proc Node's recursive mkdir never returns (100% CPU): rt must not call it there.
  const proc = rt(["probe.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: "/proc/self/rt-cache" } });
  assert.deepEqual(proc, { code: 0, signal: null, stdout: "hi esbuild-loaded\n", stderr: warning("/proc/self/rt-cache", "ENOENT") });
  // Nor enableCompileCache (V8's code cache), when the whole cache root is there.
  const root = rt(["probe.ts"], { cwd: dir, env: { XDG_CACHE_HOME: "/proc/self/cache", RT_TRANSPILER_CACHE_PATH: undefined } });
  assert.deepEqual(root, {
    code: 0,
    signal: null,
    stdout: "hi esbuild-loaded\n",
    stderr: "rt: warning: cache directory /proc/self/cache is on a pseudo file system; running uncached\n",
  });
});
