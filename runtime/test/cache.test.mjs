// The transpiler cache: content-addressed, never stale, atomic under concurrency, bounded, and
// a hit never loads esbuild. rt's caches are this user's alone (0700/0600, and a directory that
// another user owns or may write to is not used) and an entry that fails its checks is a miss.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES, RT_BIN, rt, rtAsync, tempDir } from "./rt.mjs";

// A second user for the ownership tests: `nobody`, which needs root to create files as (the
// tests run as root here and in CI).
const NOBODY = 65534;
const asRoot = { skip: process.getuid?.() !== 0 && "needs root, to act as a second user" };

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

test("the cache stays under RT_TRANSPILER_CACHE_MAX_BYTES, dropping the oldest entries with the maps beside them", (t) => {
  const { dir, cache } = project(t);
  const old = Date.now() / 1000 - 3600;
  mkdirSync(path.join(cache, "ff"), { recursive: true });
  for (let i = 0; i < 20; i++) {
    const file = path.join(cache, "ff", `old${i}`);
    writeFileSync(file, `commonjs\n${"x".repeat(10_000)}`);
    utimesSync(file, old + i, old + i);
    if (i % 19 === 0) {
      writeFileSync(`${file}.map`, "{}");
      utimesSync(`${file}.map`, old + i, old + i);
    }
  }
  const result = rt(["probe.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: cache, RT_TRANSPILER_CACHE_MAX_BYTES: "50000" } });
  assert.equal(result.stdout, "hi esbuild-loaded\n");
  const files = entries(cache);
  const total = files.reduce((sum, file) => sum + statSync(file).size, 0);
  assert.ok(total <= 50_000, `total ${total} bytes`);
  assert.ok(!files.includes(path.join(cache, "ff", "old0")), "the oldest entry went first");
  assert.ok(!files.includes(path.join(cache, "ff", "old0.map")), "and its map with it");
  assert.ok(files.includes(path.join(cache, "ff", "old19")), "the newest old entry stayed");
  assert.ok(files.includes(path.join(cache, "ff", "old19.map")), "and its map");
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

const mode = (file) => (statSync(file).mode & 0o777).toString(8);

/** rt with its cache root under `xdg` (the transpiler's in there too), in a shell with umask 000. */
function rtUmask0(xdg, args, cwd) {
  const result = spawnSync("/bin/sh", ["-c", 'umask 000; exec "$0" -- "$@"', process.execPath, RT_BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", XDG_CACHE_HOME: xdg, RT_TRANSPILER_CACHE_PATH: undefined },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
const defaultCache = { RT_TRANSPILER_CACHE_PATH: undefined };

test("rt's caches are created private whatever the umask: directories 0700, entries 0600", (t) => {
  const { dir } = project(t);
  const xdg = path.join(dir, "xdg");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ scripts: { "on-rt": 'node -e "console.log(typeof rt)"' } }));
  for (let i = 0; i < 2; i++) assert.deepEqual(rtUmask0(xdg, ["probe.ts"], dir), { code: 0, stdout: `hi esbuild-${i ? "not-" : ""}loaded\n`, stderr: "" });
  assert.equal(rtUmask0(xdg, ["--rt", "--silent", "run", "on-rt"], dir).stdout, "object\n");
  const root = path.join(xdg, "rt");
  const [entry] = entries(path.join(root, "transpiler"));
  const [shim] = readdirSync(path.join(root, "node-shim"));
  assert.deepEqual(
    [
      xdg,
      root,
      path.join(root, "v8"),
      path.join(root, "transpiler"),
      path.dirname(entry),
      entry,
      path.join(root, "node-shim"),
      path.join(root, "node-shim", shim),
    ].map(mode),
    ["700", "700", "700", "700", "700", "600", "700", "700"],
  );
  // Node's own files in v8/ are 0600; its directories there follow the umask, reachable through v8/ only.
  const v8 = readdirSync(path.join(root, "v8"), { recursive: true, withFileTypes: true }).filter((item) => item.isFile());
  assert.ok(v8.length > 0 && v8.every((item) => mode(path.join(item.parentPath, item.name)) === "600"));
});

test("a cache directory another user owns, or others may write to, is not used: one warning, then uncached", asRoot, (t) => {
  const { dir } = project(t);
  const xdg = path.join(dir, "xdg");
  const root = path.join(xdg, "rt");
  const advice = (variable) => `running uncached (remove it, or set ${variable} to a directory of your own)\n`;
  const uncached = (env, warning) => {
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(rt(["probe.ts"], { cwd: dir, env }), { code: 0, signal: null, stdout: "hi esbuild-loaded\n", stderr: warning });
    }
  };
  // The root (XDG_CACHE_HOME/rt) of another user: nothing read or written there, V8's cache
  // included (the launcher enables it before the CLI loads, in a v8/ that is the user's alone).
  const v8 = path.join(root, "v8");
  mkdirSync(v8, { recursive: true, mode: 0o755 });
  chownSync(root, NOBODY, NOBODY);
  chownSync(v8, NOBODY, NOBODY);
  uncached(
    { XDG_CACHE_HOME: xdg, ...defaultCache },
    `rt: warning: cache directory ${root} is owned by uid ${NOBODY}, not by you (uid 0); ${advice("XDG_CACHE_HOME")}`,
  );
  assert.deepEqual([readdirSync(root), readdirSync(v8)], [["v8"], []]);
  rmSync(v8, { recursive: true });
  // Our own, but anybody may write to it (the sticky bit does not help: others' entries would be theirs).
  chownSync(root, 0, 0);
  chmodSync(root, 0o1777);
  uncached({ XDG_CACHE_HOME: xdg, ...defaultCache }, `rt: warning: cache directory ${root} is writable by others (mode 0777); ${advice("XDG_CACHE_HOME")}`);
  assert.deepEqual(readdirSync(root), []);
  // A transpiler cache of another user's at RT_TRANSPILER_CACHE_PATH.
  const other = path.join(dir, "other");
  mkdirSync(other, { mode: 0o755 });
  chownSync(other, NOBODY, NOBODY);
  uncached(
    { RT_TRANSPILER_CACHE_PATH: other },
    `rt: warning: transpiler cache ${other} is owned by uid ${NOBODY}, not by you (uid 0); ${advice("RT_TRANSPILER_CACHE_PATH")}`,
  );
  assert.deepEqual(readdirSync(other), []);
  // One shard of another user's in a cache of our own: its entry is not read (nor any after it).
  const cache = path.join(dir, "cache");
  rt(["probe.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: cache } });
  const shard = path.dirname(entries(cache)[0]);
  chownSync(shard, NOBODY, NOBODY);
  uncached(
    { RT_TRANSPILER_CACHE_PATH: cache },
    `rt: warning: transpiler cache ${shard} is owned by uid ${NOBODY}, not by you (uid 0); ${advice("RT_TRANSPILER_CACHE_PATH")}`,
  );
});

test("as a second user, a cache root that root owns is not used: one warning, then uncached", asRoot, (t) => {
  const { dir } = project(t);
  chmodSync(dir, 0o755);
  const xdg = path.join(dir, "xdg");
  const root = path.join(xdg, "rt");
  mkdirSync(root, { recursive: true, mode: 0o777 });
  chmodSync(xdg, 0o755);
  chmodSync(root, 0o755);
  const asNobody = () =>
    spawnSync("setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", process.execPath, "--", RT_BIN, "probe.ts"], {
      cwd: dir,
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: "/nonexistent", XDG_CACHE_HOME: xdg, NO_COLOR: "1" },
    });
  for (let i = 0; i < 2; i++) {
    const run = asNobody();
    assert.deepEqual(
      [run.status, run.stdout, run.stderr],
      [
        0,
        "hi esbuild-loaded\n",
        `rt: warning: cache directory ${root} is owned by uid 0, not by you (uid ${NOBODY}); running uncached (remove it, or set XDG_CACHE_HOME to a directory of your own)\n`,
      ],
    );
  }
  assert.deepEqual(readdirSync(root), []);
});

test("an entry that fails its checks (truncated, garbage, edited, another key's) is a miss: transpiled again and rewritten", (t) => {
  const { dir, cache } = project(t);
  const env = { RT_TRANSPILER_CACHE_PATH: cache };
  writeFileSync(path.join(dir, "other.ts"), 'console.log("other");\n');
  rt(["other.ts"], { cwd: dir, env });
  const [otherEntry] = entries(cache);
  assert.equal(rt(["probe.ts"], { cwd: dir, env }).stdout, "hi esbuild-loaded\n");
  const entry = entries(cache).find((file) => file !== otherEntry);
  const good = readFileSync(entry);
  const damage = {
    truncated: () => truncateSync(entry, Math.floor(good.length / 2)),
    garbage: () => writeFileSync(entry, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))),
    "zero-filled": () => writeFileSync(entry, Buffer.alloc(good.length)),
    "edited, same length": () => writeFileSync(entry, good.toString("latin1").replace("hi", "yo"), "latin1"),
    "another key's": () => writeFileSync(entry, readFileSync(otherEntry)),
    empty: () => writeFileSync(entry, ""),
  };
  for (const [name, spoil] of Object.entries(damage)) {
    spoil();
    assert.deepEqual(rt(["probe.ts"], { cwd: dir, env }), { code: 0, signal: null, stdout: "hi esbuild-loaded\n", stderr: "" }, name);
    assert.deepEqual(readFileSync(entry), good, `${name}: rewritten`);
    assert.equal(rt(["probe.ts"], { cwd: dir, env }).stdout, "hi esbuild-not-loaded\n", name);
  }
});

// A CommonJS module imported by name from an ES module: the facade's names are what
// cjs-module-lexer finds (`beta` too, though only `alpha` is imported); the namespace of the same
// module shows them. The entry counts WebAssembly compilations: the lexer's, on a miss only.
const LEXER_PROJECT = {
  "main.mjs": [
    "let compiled = 0;",
    "const Module = WebAssembly.Module;",
    // The lexer's module (rt's hash is WebAssembly too).
    'WebAssembly.Module = class extends Module { constructor(...args) { super(...args); if (Module.exports(this).some((e) => e.name === "parseCJS")) compiled++; } };',
    'const { names } = await import("./uses.mjs");',
    'console.log(names, compiled ? "lexer-ran" : "lexer-not-run");',
  ].join("\n"),
  "uses.mjs":
    'import { alpha } from "./lib.cjs";\nexport const names = Object.keys(await import("./lib.cjs")).filter((key) => alpha && key !== "default" && key !== "module.exports").sort().join(",");\n',
  "lib.cjs": 'exports.alpha = "a";\nexports.beta = "b";\n',
};

function lexerProject(t) {
  const dir = tempDir(t);
  for (const [name, text] of Object.entries(LEXER_PROJECT)) writeFileSync(path.join(dir, name), text);
  return { dir, cache: path.join(dir, ".cache"), run: (env) => rt(["main.mjs"], { cwd: dir, env }) };
}

test("what cjs-module-lexer finds is cached beside the transpiled modules: a warm run does not lex, an edit is lexed again", (t) => {
  const { dir, cache, run } = lexerProject(t);
  const env = { RT_TRANSPILER_CACHE_PATH: cache };
  assert.deepEqual(run(env), { code: 0, signal: null, stdout: "alpha,beta lexer-ran\n", stderr: "" });
  assert.equal(entries(cache).length, 1);
  assert.equal(run(env).stdout, "alpha,beta lexer-not-run\n");
  writeFileSync(path.join(dir, "lib.cjs"), 'exports.alpha = "a";\nexports.gamma = "g";\n');
  assert.equal(run(env).stdout, "alpha,gamma lexer-ran\n");
  assert.equal(run(env).stdout, "alpha,gamma lexer-not-run\n");
  assert.equal(entries(cache).length, 2);
  for (let i = 0; i < 2; i++) assert.equal(run({ RT_TRANSPILER_CACHE_PATH: "0" }).stdout, "alpha,gamma lexer-ran\n");
});

test("a lexer entry that fails its checks (truncated, garbage, edited, another key's) is a miss: lexed again and rewritten", (t) => {
  const { dir, cache, run } = lexerProject(t);
  const env = { RT_TRANSPILER_CACHE_PATH: cache };
  writeFileSync(path.join(dir, "other.ts"), 'console.log("other");\n');
  rt(["other.ts"], { cwd: dir, env });
  const [otherEntry] = entries(cache);
  run(env);
  const entry = entries(cache).find((file) => file !== otherEntry);
  const good = readFileSync(entry);
  const damage = {
    truncated: () => truncateSync(entry, Math.floor(good.length / 2)),
    garbage: () => writeFileSync(entry, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))),
    "edited, same length": () => writeFileSync(entry, good.toString("latin1").replace('"beta"', '"bet4"'), "latin1"),
    "another key's": () => writeFileSync(entry, readFileSync(otherEntry)),
    empty: () => writeFileSync(entry, ""),
  };
  for (const [name, spoil] of Object.entries(damage)) {
    spoil();
    assert.deepEqual(run(env), { code: 0, signal: null, stdout: "alpha,beta lexer-ran\n", stderr: "" }, name);
    assert.deepEqual(readFileSync(entry), good, `${name}: rewritten`);
    assert.equal(run(env).stdout, "alpha,beta lexer-not-run\n", name);
  }
});

// V8's code cache for rt's CLI bundle (src/launcher/code-cache.ts), made after a run in the cache
// root's v8/rt: the launcher uses it once v8/ exists (the first run creates it). An entry that is
// used stays as it is; one that is written again is a new file (temp + rename): a new inode.
function bundleCacheProject(t) {
  const { dir } = project(t);
  const xdg = path.join(dir, "xdg");
  // Every run checks its cache at exit (RT_CODE_CACHE_REFRESH=1, one in 16 by default): an entry
  // "used as it is" below is also one that a check leaves alone.
  const env = { XDG_CACHE_HOME: xdg, RT_TRANSPILER_CACHE_PATH: undefined, RT_CODE_CACHE_REFRESH: "1" };
  const run = (more = {}, args = ["probe.ts"]) => rt(args, { cwd: dir, env: { ...env, ...more } });
  return { dir, bundleCache: path.join(xdg, "rt", "v8", "rt"), run };
}

const identityOf = (file) => statSync(file, { bigint: true }).ino;

test("rt's CLI bundle gets V8's code cache made after a run: written once, then used as it is", (t) => {
  const { bundleCache, run } = bundleCacheProject(t);
  assert.equal(run().stdout, "hi esbuild-loaded\n");
  assert.equal(run().stdout, "hi esbuild-not-loaded\n");
  const [entry, ...others] = entries(bundleCache);
  assert.deepEqual(others, []);
  assert.equal(statSync(entry).mode & 0o777, 0o600);
  const written = identityOf(entry);
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(run(), { code: 0, signal: null, stdout: "hi esbuild-not-loaded\n", stderr: "" });
    assert.equal(identityOf(entry), written, "used, not written again");
  }
  // Node's switch for its compile cache turns this one off too.
  rmSync(bundleCache, { recursive: true });
  assert.equal(run({ NODE_DISABLE_COMPILE_CACHE: "1" }).stdout, "hi esbuild-not-loaded\n");
  assert.equal(statSync(bundleCache, { throwIfNoEntry: false }), undefined);
});

test("file runs keep a code cache of their own: a first `rt --version` does not decide what `rt app.ts` finds compiled", (t) => {
  const { bundleCache, run } = bundleCacheProject(t);
  const version = () => run({}, ["--version"]);
  // The first run makes v8/, the second writes the entry of commands.
  for (let i = 0; i < 2; i++) assert.equal(version().code, 0);
  const [command, ...none] = entries(bundleCache);
  assert.deepEqual(none, []);
  const commandWritten = identityOf(command);
  run();
  const after = entries(bundleCache);
  assert.equal(after.length, 2, "the file run wrote an entry of its own");
  const written = after.map(identityOf);
  assert.deepEqual(run(), { code: 0, signal: null, stdout: "hi esbuild-not-loaded\n", stderr: "" });
  assert.equal(version().code, 0);
  assert.deepEqual(entries(bundleCache).map(identityOf), written, "each used, neither written again");
  assert.ok(written.includes(commandWritten));
});

test("only a run that succeeded makes the code cache: a first run that fails does not decide what later runs find compiled", (t) => {
  const { bundleCache, run } = bundleCacheProject(t);
  // The first run makes v8/ (and no entry yet); then a mistyped file name, and a program that fails.
  assert.equal(run().code, 0);
  assert.equal(statSync(bundleCache, { throwIfNoEntry: false }), undefined);
  assert.equal(run({}, ["prboe.ts"]).code, 1);
  assert.equal(run({}, ["-e", "process.exitCode = 3"]).code, 3);
  assert.equal(statSync(bundleCache, { throwIfNoEntry: false }), undefined, "no entry from a failed run");
  assert.equal(run().stdout, "hi esbuild-not-loaded\n");
  assert.equal(entries(bundleCache).length, 1);
});

test("a code cache made by a small run grows to what a larger one compiles, checked at the exit of one run in RT_CODE_CACHE_REFRESH", (t) => {
  const { dir, bundleCache, run } = bundleCacheProject(t);
  // A program that loads more of rt: a CommonJS package imported from an ES module (interop),
  // resolved from node_modules.
  mkdirSync(path.join(dir, "node_modules", "cjs-pkg"), { recursive: true });
  writeFileSync(path.join(dir, "node_modules", "cjs-pkg", "index.js"), "exports.shout = (s) => s.toUpperCase();\n");
  writeFileSync(path.join(dir, "uses-pkg.ts"), 'import { shout } from "cjs-pkg";\nconst word: string = shout("pkg");\nconsole.log(word);\n');
  const big = (more = {}) => run(more, ["uses-pkg.ts"]);
  // One run in a million checks: the entry is made by the small program and kept.
  const unchecked = { RT_CODE_CACHE_REFRESH: "1000000" };
  run(unchecked);
  run(unchecked);
  const [entry] = entries(bundleCache);
  const small = statSync(entry);
  assert.equal(big(unchecked).code, 0);
  assert.equal(statSync(entry).ino, small.ino);
  // Checked at every exit: the larger program's cache holds more, and replaces the entry.
  assert.deepEqual(big({ RT_CODE_CACHE_REFRESH: "1" }), { code: 0, signal: null, stdout: "PKG\n", stderr: "" });
  const grown = statSync(entry);
  assert.notEqual(grown.ino, small.ino, "rewritten");
  assert.ok(grown.size > small.size, `larger: ${grown.size} > ${small.size}`);
  // Once it holds both, checks leave it as it is.
  for (const again of [() => big({ RT_CODE_CACHE_REFRESH: "1" }), () => run({ RT_CODE_CACHE_REFRESH: "1" })]) {
    assert.equal(again().code, 0);
    assert.equal(statSync(entry).ino, grown.ino, "used as it is");
  }
});

test("a process a program starts (rt-runtime/register loads the CLI bundle there) has a code cache of its own", (t) => {
  const { dir } = project(t);
  const xdg = path.join(dir, "xdg");
  writeFileSync(path.join(dir, "child.ts"), 'const n: number = 1;\nconsole.log("child", n);\n');
  writeFileSync(
    path.join(dir, "parent.ts"),
    'import { execFileSync } from "node:child_process";\nconsole.log(execFileSync(process.execPath, ["child.ts"], { encoding: "utf8" }).trim());\n',
  );
  const run = () => rt(["parent.ts"], { cwd: dir, env: { XDG_CACHE_HOME: xdg, RT_TRANSPILER_CACHE_PATH: undefined, RT_CODE_CACHE_REFRESH: "1" } });
  const bundleCache = path.join(xdg, "rt", "v8", "rt");
  // The first run makes v8/, where the child (started after) writes its cache; the second, the launcher's.
  for (let i = 0; i < 2; i++) assert.deepEqual(run(), { code: 0, signal: null, stdout: "child 1\n", stderr: "" });
  const written = entries(bundleCache).map(identityOf);
  assert.equal(written.length, 2);
  assert.deepEqual(run(), { code: 0, signal: null, stdout: "child 1\n", stderr: "" });
  assert.deepEqual(entries(bundleCache).map(identityOf), written, "both used, neither written again");
});

test("a code cache entry of rt's bundle that fails its checks is a miss: the run is the same, the entry rewritten", (t) => {
  const { bundleCache, run } = bundleCacheProject(t);
  run();
  run();
  const [entry] = entries(bundleCache);
  const good = readFileSync(entry);
  const flipped = Buffer.from(good);
  flipped[good.length - 100] ^= 0x40;
  const damage = {
    truncated: () => truncateSync(entry, Math.floor(good.length / 2)),
    garbage: () => writeFileSync(entry, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))),
    // V8 checks no checksum in release builds: only rt's own check stands between this and V8.
    "one bit of V8's data flipped": () => writeFileSync(entry, flipped),
    empty: () => writeFileSync(entry, ""),
  };
  for (const [name, spoil] of Object.entries(damage)) {
    spoil();
    const spoiled = identityOf(entry);
    assert.deepEqual(run(), { code: 0, signal: null, stdout: "hi esbuild-not-loaded\n", stderr: "" }, name);
    assert.notEqual(identityOf(entry), spoiled, `${name}: rewritten`);
    const rewritten = identityOf(entry);
    run();
    assert.equal(identityOf(entry), rewritten, `${name}: the rewritten entry is used`);
  }
});

test("a code cache directory of rt's bundle that another user owns is neither read nor written", asRoot, (t) => {
  const { bundleCache, run } = bundleCacheProject(t);
  run();
  run();
  const [entry] = entries(bundleCache);
  writeFileSync(entry, "");
  chownSync(bundleCache, NOBODY, NOBODY);
  for (let i = 0; i < 2; i++) assert.deepEqual(run(), { code: 0, signal: null, stdout: "hi esbuild-not-loaded\n", stderr: "" });
  assert.equal(readFileSync(entry).length, 0);
});

test("the --rt node shim of a cache directory that is not the user's alone: a private temporary one instead", asRoot, (t) => {
  const { dir } = project(t);
  const xdg = path.join(dir, "xdg");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ scripts: { "on-rt": 'node -e "console.log(typeof rt)"' } }));
  const shims = path.join(xdg, "rt", "node-shim");
  mkdirSync(shims, { recursive: true, mode: 0o700 });
  chownSync(shims, NOBODY, NOBODY);
  const run = rt(["--rt", "--silent", "run", "on-rt"], { cwd: dir, env: { XDG_CACHE_HOME: xdg } });
  assert.deepEqual([run.code, run.stdout], [0, "object\n"]);
  assert.equal(
    run.stderr,
    `rt: warning: cache directory ${shims} is owned by uid ${NOBODY}, not by you (uid 0); running uncached (remove it, or set XDG_CACHE_HOME to a directory of your own)\n`,
  );
  assert.deepEqual(readdirSync(shims), []);
});
