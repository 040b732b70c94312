// rt build: real fixture projects bundled by the real rt, the output run with rt and with
// node --enable-source-maps, stack traces checked against the original .ts lines; macros on the
// runtime path and the bundle path; the bad inputs.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { FIXTURES, REPO, rt, rtLive, tempDir } from "./rt.mjs";

/** A fresh copy of a fixture project (builds write into it). */
function project(t, name) {
  const dir = path.join(tempDir(t, "rt-build-"), name);
  cpSync(path.join(FIXTURES, "build", name), dir, { recursive: true });
  return dir;
}

function build(dir, args) {
  const result = rt(["build", ...args], { cwd: dir });
  assert.equal(result.code, 0, `rt build ${args.join(" ")}\n${result.stderr}`);
  return result;
}

function node(dir, args) {
  return spawnSync(process.execPath, ["--enable-source-maps", ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
}

/** Runs a bundle with rt and with node; both print `expected`. */
function runsWithBoth(dir, file, expected) {
  const viaRt = rt([file], { cwd: dir });
  assert.deepEqual({ code: viaRt.code, stdout: viaRt.stdout, stderr: viaRt.stderr }, { code: 0, stdout: expected, stderr: "" });
  const viaNode = node(dir, [file]);
  assert.equal(viaNode.stderr, "");
  assert.equal(viaNode.stdout, expected);
}

/** The bundle's thrown error, under rt and under node, points at `source:line:column` of the original file. */
function throwsAtOriginal(dir, file, source, line, column) {
  const location = `${path.join(dir, source)}:${line}:${column}`;
  const viaRt = rt([file, "fail"], { cwd: dir });
  assert.equal(viaRt.code, 1);
  assert.match(viaRt.stderr, new RegExp(`\\n    at .*\\(?${escapeRegExp(location)}\\)?\\n`), viaRt.stderr);
  const viaNode = node(dir, [file, "fail"]);
  assert.equal(viaNode.status, 1);
  assert.match(viaNode.stderr, new RegExp(`\\n    at .*\\(?${escapeRegExp(location)}\\)?\\n`), viaNode.stderr);
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("bundles that run with rt and node, with stacks in the original sources", () => {
  test("ES modules: --outdir, linked source map by default, a thrown error maps to the .ts line", (t) => {
    const dir = project(t, "esm");
    const { stderr } = build(dir, ["./src/cli.ts", "--outdir", "dist", "--target", "node"]);
    assert.match(stderr, /dist\/cli\.js\.map/);
    assert.match(readFileSync(path.join(dir, "dist/cli.js"), "utf8"), /\/\/# sourceMappingURL=cli\.js\.map\n$/);
    runsWithBoth(dir, "dist/cli.js", "esm has 2 lines dev\n");
    throwsAtOriginal(dir, "dist/cli.js", "src/util.ts", 11, 9);
  });

  test("a build that needs no plugin runs esbuild's executable; macros and TOML bring in its API with rt's plugins", (t) => {
    const probe = path.join(REPO, "runtime", "test", "probes", "startup.cjs");
    const probed = (dir, args) => {
      const result = rt(["build", ...args], { cwd: dir, env: { NODE_OPTIONS: `--require ${probe}` } });
      assert.equal(result.code, 0, result.stderr);
      return /probe: .*esbuild=(\w+)/.exec(result.stderr)[1];
    };
    assert.equal(probed(project(t, "esm"), ["src/cli.ts", "--outdir", "dist", "--minify", "--define", 'process.env.MODE:"x"']), "false");
    assert.equal(probed(project(t, "macro"), ["src/app.ts", "--outdir", "dist"]), "true");
    assert.equal(
      probed(project(t, "options"), ["src/main.ts", "--outdir", "dist", "--tsconfig-override", "config/tsconfig.build.json", "--loader", ".data:text"]),
      "true",
    );
  });

  test("the runtime's transpile flags apply to bundles: --define and --drop", (t) => {
    const dir = project(t, "esm");
    build(dir, ["src/cli.ts", "--outfile", "out/cli.js", "--define", 'process.env.MODE:"prod"']);
    runsWithBoth(dir, "out/cli.js", "esm has 2 lines prod\n");
    build(dir, ["src/cli.ts", "--outfile", "quiet/cli.js", "--drop=console"]);
    runsWithBoth(dir, "quiet/cli.js", "");
  });

  test("--tsconfig-override (paths), --loader, --conditions and TOML imports bundle as rt runs them", (t) => {
    const dir = project(t, "options");
    const flags = ["--tsconfig-override", "config/tsconfig.build.json", "--loader", ".data:text", "--conditions", "special"];
    const expected = "hi options from toml 3 plain text asset special\n";
    assert.equal(rt([...flags, "src/main.ts"], { cwd: dir }).stdout, expected);
    build(dir, ["src/main.ts", "--outdir", "dist", ...flags]);
    runsWithBoth(dir, "dist/main.js", expected);
  });

  test("--splitting shares chunks between entries; --sourcemap=external writes a map without a link", (t) => {
    const dir = project(t, "esm");
    writeFileSync(path.join(dir, "src/other.ts"), 'import { describe } from "./util.ts";\nconsole.log(describe({ name: "other", lines: 1 }));\n');
    build(dir, ["src/cli.ts", "src/other.ts", "--outdir", "dist", "--splitting", "--sourcemap=external"]);
    const files = readdirSync(path.join(dir, "dist")).sort();
    assert.ok(
      files.some((file) => /^chunk-.*\.js$/.test(file)),
      files.join(" "),
    );
    assert.doesNotMatch(readFileSync(path.join(dir, "dist/cli.js"), "utf8"), /sourceMappingURL/);
    assert.ok(files.includes("cli.js.map"));
    runsWithBoth(dir, "dist/other.js", "other has 1 lines\n");
    runsWithBoth(dir, "dist/cli.js", "esm has 2 lines dev\n");
  });

  test("CommonJS: --format cjs with JSON imports; inline maps of a minified bundle map too", (t) => {
    const dir = project(t, "cjs");
    build(dir, ["src/main.ts", "--outdir", "dist", "--format", "cjs"]);
    runsWithBoth(dir, "dist/main.js", "sum 10 (object)\n");
    throwsAtOriginal(dir, "dist/main.js", "src/main.ts", 7, 9);
    build(dir, ["src/main.ts", "--outfile", "min/main.js", "--format=cjs", "--minify", "--sourcemap=inline"]);
    assert.ok(!existsSync(path.join(dir, "min/main.js.map")));
    throwsAtOriginal(dir, "min/main.js", "src/main.ts", 7, 9);
  });

  test("an ES module bundle in a CommonJS package is written as .mjs, so node runs it", (t) => {
    const dir = project(t, "cjs");
    build(dir, ["src/main.ts", "--outdir", "dist"]);
    assert.ok(existsSync(path.join(dir, "dist/main.mjs")));
    runsWithBoth(dir, "dist/main.mjs", "sum 10 (object)\n");
  });

  test("TSX with the classic JSX flags", (t) => {
    const dir = project(t, "jsx");
    build(dir, ["src/app.tsx", "--outdir", "dist", "--jsx-runtime", "classic", "--jsx-factory", "h", "--jsx-fragment", "Fragment"]);
    runsWithBoth(dir, "dist/app.js", '<p class="greeting">hello jsx</p><b>!</b>\n');
    throwsAtOriginal(dir, "dist/app.js", "src/app.tsx", 10, 9);
  });

  test("without --outdir/--outfile the bundle goes to stdout; --target browser has no Node banner", (t) => {
    const dir = project(t, "esm");
    const node = build(dir, ["src/cli.ts"]);
    assert.match(node.stdout, /createRequire/);
    assert.match(node.stdout, /function describe\(project\)/);
    const browser = build(dir, ["src/cli.ts", "--target=browser"]);
    assert.doesNotMatch(browser.stdout, /createRequire/);
  });

  test("--external leaves a package to run time; --target rt keeps the rt module", (t) => {
    const dir = tempDir(t);
    mkdirSync(path.join(dir, "node_modules/dep"), { recursive: true });
    writeFileSync(path.join(dir, "node_modules/dep/package.json"), '{ "name": "dep", "main": "index.js" }');
    writeFileSync(path.join(dir, "node_modules/dep/index.js"), "exports.answer = 'DEP_ANSWER';\n");
    writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }');
    writeFileSync(path.join(dir, "app.ts"), 'import { answer } from "dep";\nimport { version } from "rt";\nconsole.log(answer, typeof version);\n');
    build(dir, ["app.ts", "--outfile", "out.js", "--target", "rt", "--external", "dep"]);
    const code = readFileSync(path.join(dir, "out.js"), "utf8");
    assert.doesNotMatch(code, /DEP_ANSWER/);
    assert.match(code, /from "rt"/);
    assert.equal(rt(["out.js"], { cwd: dir }).stdout, "DEP_ANSWER string\n");
  });

  test("--watch rebuilds when a source changes", async (t) => {
    const dir = project(t, "esm");
    const live = rtLive(t, ["build", "src/cli.ts", "--outdir", "dist", "--watch"], { cwd: dir });
    await live.waitFor(/build finished/);
    const from = live.output.length;
    const util = path.join(dir, "src/util.ts");
    writeFileSync(util, readFileSync(util, "utf8").replace("has ${project.lines} lines", "is rebuilt"));
    await live.waitFor(/build finished/, { from });
    assert.equal(rt(["dist/cli.js"], { cwd: dir }).stdout, "esm is rebuilt dev\n");
  });
});

describe("macros", () => {
  const expected = 'v1@macro 6 {"name":"build-macro","nested":{"ok":true}}\n';

  test("runtime path: calls are replaced by their (awaited) results; stacks keep the .ts lines", (t) => {
    const dir = project(t, "macro");
    const run = rt(["src/app.ts"], { cwd: dir });
    assert.deepEqual({ code: run.code, stdout: run.stdout, stderr: run.stderr }, { code: 0, stdout: expected, stderr: "" });
    const failed = rt(["src/app.ts", "fail"], { cwd: dir });
    assert.match(failed.stderr, new RegExp(`at .*${escapeRegExp(path.join(dir, "src/app.ts"))}:6:`));
    assert.match(failed.stderr, /^3 \| const built: string = stamp\("v1"\);$/m, "the preview shows the file as written");
  });

  test("bundle path: the results are inlined and the macro module never reaches the output", (t) => {
    const dir = project(t, "macro");
    build(dir, ["src/app.ts", "--outdir", "dist"]);
    const code = readFileSync(path.join(dir, "dist/app.js"), "utf8");
    assert.doesNotMatch(code, /MACRO_SECRET_MARKER|sumLater|readFileSync|type: "macro"/);
    runsWithBoth(dir, "dist/app.js", expected);
    throwsAtOriginal(dir, "dist/app.js", "src/app.ts", 6, 39);
  });

  test("--no-macros makes a macro import an error in the runtime and the bundler", (t) => {
    const dir = project(t, "macro");
    const run = rt(["--no-macros", "src/app.ts"], { cwd: dir });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /^src\/app\.ts:1:1: error: macro import of "\.\/macros\.ts" refused: --no-macros/);
    const bundled = rt(["build", "src/app.ts", "--outdir", "dist", "--no-macros"], { cwd: dir });
    assert.equal(bundled.code, 1);
    assert.match(bundled.stderr, /macro import of "\.\/macros\.ts" refused: --no-macros[^\n]*\n\n\s+src\/app\.ts:1:0:/);
    assert.ok(!existsSync(path.join(dir, "dist")));
  });

  test("a macro that throws: the macro's file:line and the call site's file:line", (t) => {
    const dir = project(t, "macro-throws");
    const run = rt(["src/app.ts"], { cwd: dir });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "", "nothing of the program ran");
    assert.match(run.stderr, /^src\/app\.ts:4:15: error: macro explode\(\) threw Error: cannot expand: bad input \(at src\/macros\.ts:3:11\)\n/);
    assert.doesNotMatch(run.stderr, /node:internal|dist\/cli/);
    const bundled = rt(["build", "src/app.ts", "--outdir", "dist"], { cwd: dir });
    assert.equal(bundled.code, 1);
    assert.match(bundled.stderr, /macro explode\(\) threw Error: cannot expand: bad input \(at src\/macros\.ts:3:11\)[^\n]*\n\n\s+src\/app\.ts:4:14:/);
  });

  test("a result that is not JSON-serialisable is an error naming its type", (t) => {
    const dir = project(t, "macro-unserialisable");
    const run = rt(["src/app.ts"], { cwd: dir });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^src\/app\.ts:3:15: error: macro lookup\(\) returned a Map as the result\.entries, which is not JSON-serialisable/);
    const bundled = rt(["build", "src/app.ts", "--outdir", "dist"], { cwd: dir });
    assert.equal(bundled.code, 1);
    assert.match(bundled.stderr, /macro lookup\(\) returned a Map as the result\.entries, which is not JSON-serialisable/);
  });

  test("expanded at every run, as bun does: a macro sees the environment variable's new value; esbuild's output is still cached", (t) => {
    const dir = tempDir(t);
    const log = path.join(dir, "runs.log");
    writeFileSync(
      path.join(dir, "macros.ts"),
      `import { appendFileSync } from "node:fs";\nexport function value(): string {\n  appendFileSync(${JSON.stringify(log)}, "run\\n");\n  return process.env.MACRO_VALUE ?? "unset";\n}\n`,
    );
    writeFileSync(path.join(dir, "app.ts"), 'import { value } from "./macros.ts" with { type: "macro" };\nconsole.log(value());\n');
    const probe = path.join(REPO, "runtime", "test", "probes", "startup.cjs");
    const run = (value) =>
      rt(["app.ts"], { cwd: dir, env: { RT_TRANSPILER_CACHE_PATH: path.join(dir, "cache"), MACRO_VALUE: value, NODE_OPTIONS: `--require ${probe}` } });
    const runs = () => readFileSync(log, "utf8").split("\n").length - 1;
    assert.equal(run("first").stdout, "first\n");
    const again = run("first");
    assert.equal(again.stdout, "first\n");
    assert.equal(runs(), 2, "the macro ran again");
    assert.match(again.stderr, /^probe: hooks=true esbuild=false /m, "the same expansion came from the cache");
    assert.equal(run("second").stdout, "second\n");
    writeFileSync(path.join(dir, "macros.ts"), readFileSync(path.join(dir, "macros.ts"), "utf8").replace('?? "unset"', '+ "!"'));
    assert.equal(run("third").stdout, "third!\n");
    assert.equal(runs(), 4);
  });

  test("a warm run of a file that only mentions macros spawns nothing and loads neither esbuild nor child_process", (t) => {
    const dir = tempDir(t);
    writeFileSync(path.join(dir, "plain.ts"), '// no macro imports here, only the word "macro"\nconst macro: string = "macro";\nconsole.log(macro);\n');
    const probe = path.join(REPO, "runtime", "test", "probes", "startup.cjs");
    const env = { RT_TRANSPILER_CACHE_PATH: path.join(dir, "cache") };
    assert.equal(rt(["plain.ts"], { cwd: dir, env }).stdout, "macro\n");
    const warm = rt(["plain.ts"], { cwd: dir, env: { ...env, NODE_OPTIONS: `--require ${probe}` } });
    assert.equal(warm.stdout, "macro\n");
    assert.match(warm.stderr, /^probe: hooks=true esbuild=false child_process=false$/m);
  });

  test("a macro import in plain JavaScript that Node loads itself is an error, not a run-time import", (t) => {
    const dir = project(t, "macro");
    writeFileSync(path.join(dir, "plain.mjs"), 'import { stamp } from "./src/macros.ts" with { type: "macro" };\nconsole.log(stamp("x"));\n');
    const run = rt(["plain.mjs"], { cwd: dir });
    assert.deepEqual({ code: run.code, stdout: run.stdout }, { code: 1, stdout: "" });
    assert.match(
      run.stderr,
      /^error: plain\.mjs: macro import of "\.\/src\/macros\.ts" that rt cannot expand: macros are expanded in the static imports of files rt transpiles/,
    );
    assert.match(rt(["--no-macros", "plain.mjs"], { cwd: dir }).stderr, /^error: plain\.mjs: macro import of "\.\/src\/macros\.ts" refused: --no-macros/);
    // The bundler transpiles every file: there the same import is expanded.
    assert.match(build(dir, ["plain.mjs"]).stdout, /console\.log\("x@macro"\)/);
  });

  test("a macro module that fails to compile, or imports itself as a macro, is reported as such", (t) => {
    const dir = tempDir(t);
    writeFileSync(path.join(dir, "broken.ts"), "export function broken(: number {}\n");
    writeFileSync(path.join(dir, "app.ts"), 'import { broken } from "./broken.ts" with { type: "macro" };\nconsole.log(broken());\n');
    writeFileSync(
      path.join(dir, "self.ts"),
      'import { loop } from "./self.ts" with { type: "macro" };\nexport function loop() {\n  return 1;\n}\nconsole.log(loop());\n',
    );
    const broken = rt(["app.ts"], { cwd: dir });
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /^broken\.ts:1:24: error: Expected identifier but found ":"\n/);
    const self = rt(["self.ts"], { cwd: dir });
    assert.equal(self.code, 1);
    assert.match(self.stderr, /^self\.ts:1:1: error: macros nest 8 levels deep/);
  });

  test("macros from packages in node_modules are refused, unless the package is the project itself", (t) => {
    const dir = tempDir(t);
    writeFileSync(path.join(dir, "package.json"), '{ "name": "my-app", "type": "module" }');
    for (const name of ["dep", "my-app"]) {
      mkdirSync(path.join(dir, "node_modules", name), { recursive: true });
      writeFileSync(path.join(dir, "node_modules", name, "package.json"), `{ "name": "${name}", "type": "module", "main": "index.js" }`);
      writeFileSync(path.join(dir, "node_modules", name, "index.js"), `export function who() { return "${name}"; }\n`);
    }
    writeFileSync(path.join(dir, "dep.ts"), 'import { who } from "dep" with { type: "macro" };\nconsole.log(who());\n');
    writeFileSync(path.join(dir, "self.ts"), 'import { who } from "my-app" with { type: "macro" };\nconsole.log(who());\n');
    const refused = rt(["dep.ts"], { cwd: dir });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^dep\.ts:1:1: error: macro module "dep" is in a package in node_modules: macros from packages are refused/);
    const bundled = rt(["build", "dep.ts"], { cwd: dir });
    assert.equal(bundled.code, 1);
    assert.match(bundled.stderr, /macro module "dep" is in a package in node_modules/);
    assert.equal(rt(["self.ts"], { cwd: dir }).stdout, "my-app\n");
    assert.match(build(dir, ["self.ts"]).stdout, /console\.log\("my-app"\)/);
  });
});

describe("bad input", () => {
  test("a bad build flag: rt: ..., exit 2, naming the flag", (t) => {
    const dir = project(t, "esm");
    const cases = [
      [["build", "src/cli.ts", "--format=umd"], /^rt: invalid value "umd" for --format; valid values: esm, cjs\n$/],
      [["build", "src/cli.ts", "--target", "deno"], /^rt: invalid value "deno" for --target; valid values: node, browser, rt\n$/],
      [["build", "src/cli.ts", "--sourcemap=both"], /^rt: invalid value "both" for --sourcemap/],
      [["build", "src/cli.ts", "--smol"], /^rt: --smol does not apply to rt build/],
      [["--outdir", "dist", "src/cli.ts"], /^rt: --outdir is a flag of "rt build"/],
      [["build", "src/cli.ts", "src/util.ts", "--outfile", "x.js"], /^rt: --outfile names one bundle but 2 entries were given: use --outdir\n$/],
      [["build", "src/cli.ts", "--splitting", "--outfile", "x.js"], /^rt: --splitting needs --format esm and --outdir/],
      [["build", "src/cli.ts", "--sourcemap=linked"], /^rt: --sourcemap=linked writes a \.map file: give --outdir or --outfile/],
      [["build"], /^rt: rt build needs at least one entry file/],
    ];
    for (const [args, message] of cases) {
      const result = rt(args, { cwd: dir });
      assert.equal(result.code, 2, args.join(" "));
      assert.match(result.stderr, message);
      assert.equal(result.stdout, "");
    }
  });

  test("a failed build exits 1 with esbuild's positioned messages", (t) => {
    const dir = project(t, "esm");
    writeFileSync(path.join(dir, "src/broken.ts"), 'import { nothing } from "./missing.ts";\nconst n: number = ;\n');
    const result = rt(["build", "src/broken.ts", "--outdir", "dist"], { cwd: dir });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Unexpected ";"\n\n\s+src\/broken\.ts:2:18:/);
    assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack from inside rt");
    assert.ok(!existsSync(path.join(dir, "dist")));
  });
});
