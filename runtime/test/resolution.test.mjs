// How rt finds files: extensionless and directory imports, `.js` specifiers naming `.ts`
// files, tsconfig `paths`/`baseUrl`/`extends`, package `exports`/`imports` conditions,
// `--main-fields`, symlinks and the "rt" module (with its type declarations).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES, REPO, rt, tempDir, runOk } from "./rt.mjs";

const HERE = path.join(FIXTURES, "resolution");
const fixture = (name) => path.join(HERE, name);
const RT_VERSION = JSON.parse(readFileSync(path.join(REPO, "runtime", "package.json"), "utf8")).version;

/** Runs rt in a fixture directory; asserts a clean exit and returns stdout. */
const lines = (...items) => items.map((line) => `${line}\n`).join("");

// ---------------------------------------------------------------------------------------------
// Extensions and directories

test("extensionless imports try .tsx, .ts, .jsx, .js, .json in that order", () => {
  assert.equal(runOk(fixture("extensions"), ["main.ts"]), lines("x -> x.ts", "y -> y.tsx", "b -> b.ts", "c -> c.jsx", "d -> d.js"));
});

test("--extension-order=.js,.ts puts .js first", () => {
  assert.equal(
    runOk(fixture("extensions"), ["--extension-order=.js,.ts", "main.ts"]),
    // d has no .json in the list, but d.js is first anyway; y has no .js so .ts wins over .tsx.
    lines("x -> x.js", "y -> y.ts", "b -> b.ts", "c -> c.js", "d -> d.js"),
  );
});

test("require() tries extensions and directories in the same order as import", () => {
  const dir = fixture("extensions");
  assert.equal(runOk(dir, ["require.cts"]), lines("x -> x.ts", "y -> y.tsx", "../directories/lib -> lib/index.ts"));
  assert.equal(runOk(dir, ["--extension-order=.js,.ts", "require.cts"]), lines("x -> x.js", "y -> y.ts", "../directories/lib -> lib/index.ts"));
});

test("--extension-order limits the extensions tried", () => {
  // ./y exists only as y.tsx and y.ts, neither of which is in the list.
  const result = rt(["--extension-order", ".js", "main.ts"], { cwd: fixture("extensions") });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.equal(result.stderr, `error: Cannot find module './y' from '${path.join(fixture("extensions"), "main.ts")}'\n`);
});

test("a directory import loads index.* (in extension order) or package.json main", () => {
  assert.equal(
    runOk(fixture("directories"), ["main.ts"]),
    lines(
      "./lib -> lib/index.ts",
      "./both -> both/index.ts",
      // package.json "main" wins over index.ts, and is itself extensionless or a directory.
      "./pkg -> pkg/src/start.ts",
      "./pkgdir -> pkgdir/dist/index.ts",
      ". -> index.ts",
    ),
  );
});

test('a specifier ending in "/" names the directory, even when a file has the same name', () => {
  assert.equal(runOk(fixture("directories"), ["trailing-slash.ts"]), lines("./shadowed -> shadowed.ts", "./shadowed/ -> shadowed/index.ts"));
});

test("a .js/.jsx/.mjs/.cjs specifier names the TypeScript file it compiles from", () => {
  assert.equal(
    runOk(fixture("output-specifiers"), ["main.ts"]),
    lines("./util.js -> util.ts", "./view.js -> view.tsx", "./widget.jsx -> widget.tsx", "./esm.mjs -> esm.mts (esm)", "./common.cjs -> common.cts (cjs)"),
  );
});

// ---------------------------------------------------------------------------------------------
// tsconfig.json

test("tsconfig paths: * patterns, the longest prefix wins, exact names, fallbacks, baseUrl", () => {
  assert.equal(
    runOk(fixture("tsconfig-paths"), ["main.ts"]),
    lines(
      "@app/foo -> src/app/foo.ts",
      // "@app/*" comes first in the file but "@app/special/*" is the longer prefix.
      "@app/special/bar -> src/special/bar.ts",
      "exact-alias -> src/exact.ts",
      // The first target (missing/*) does not exist; the second one does.
      "@multi/foo -> src/app/foo.ts",
      "lib/thing -> lib/thing.ts",
    ),
  );
});

test("--tsconfig-override uses another config's paths", () => {
  const dir = fixture("tsconfig-paths");
  assert.equal(runOk(dir, ["override.ts"]), lines("@app/foo -> src/app/foo.ts"));
  assert.equal(runOk(dir, ["--tsconfig-override", "other.json", "override.ts"]), lines("@app/foo -> alt/foo.ts"));
});

test("--tsconfig-override with a missing file is a usage error", () => {
  const dir = fixture("tsconfig-paths");
  const result = rt(["--tsconfig-override", "nope.json", "override.ts"], { cwd: dir });
  assert.deepEqual(result, {
    code: 2,
    signal: null,
    stdout: "",
    stderr: `rt: --tsconfig-override: no such file: ${path.join(dir, "nope.json")}\n`,
  });
});

test("tsconfig extends: paths inherited from the base config, relative to the base", () => {
  assert.equal(runOk(fixture("tsconfig-extends"), ["main.ts"]), lines("@shared/greeting -> shared/greeting.ts"));
});

test("tsconfig extends: an array and a package name; the last config's paths replace earlier ones", () => {
  const dir = fixture("tsconfig-extends");
  const args = ["--tsconfig-override", "tsconfig.array.json"];
  assert.equal(runOk(dir, [...args, "array.ts"]), lines("@acme/tools -> @acme/tsconfig/lib/tools.ts"));
  const result = rt([...args, "main.ts"], { cwd: dir });
  assert.deepEqual(
    { code: result.code, stdout: result.stdout, stderr: result.stderr },
    { code: 1, stdout: "", stderr: `error: Cannot find module '@shared/greeting' from '${path.join(dir, "main.ts")}'\n` },
  );
});

// ---------------------------------------------------------------------------------------------
// Packages

test("package exports: Node's conditions by default", () => {
  assert.equal(
    runOk(fixture("conditions"), ["main.ts"]),
    lines("cond-a -> cond-a/import.js", "cond-a/feature -> cond-a/feature-default.js", "cond-b -> cond-b/default.js"),
  );
});

test("--conditions custom selects the custom export, for subpaths too", () => {
  assert.equal(
    runOk(fixture("conditions"), ["--conditions", "custom", "main.ts"]),
    lines("cond-a -> cond-a/custom.js", "cond-a/feature -> cond-a/feature-custom.js", "cond-b -> cond-b/default.js"),
  );
});

test("--conditions is repeatable and takes comma lists", () => {
  const expected = lines("cond-a -> cond-a/custom.js", "cond-a/feature -> cond-a/feature-custom.js", "cond-b -> cond-b/other.js");
  assert.equal(runOk(fixture("conditions"), ["--conditions", "custom", "--conditions", "other", "main.ts"]), expected);
  assert.equal(runOk(fixture("conditions"), ["--conditions=custom,other", "main.ts"]), expected);
});

test("--conditions applies to require() too", () => {
  assert.equal(runOk(fixture("conditions"), ["require.cts"]), lines("require cond-a -> cond-a/default.js"));
  assert.equal(runOk(fixture("conditions"), ["--conditions", "custom", "require.cts"]), lines("require cond-a -> cond-a/custom.js"));
});

test("package imports: #internal, #pattern/* and conditional # specifiers reach TypeScript files", () => {
  assert.equal(
    runOk(fixture("conditions"), ["imports.ts"]),
    lines("#internal -> src/internal.ts", "#utils/strings -> src/utils-strings.ts", "#env -> src/env-default.ts"),
  );
  assert.equal(
    runOk(fixture("conditions"), ["--conditions", "custom", "imports.ts"]),
    lines("#internal -> src/internal.ts", "#utils/strings -> src/utils-strings.ts", "#env -> src/env-custom.ts"),
  );
});

test("without --main-fields a package's main is used", () => {
  assert.equal(
    runOk(fixture("main-fields"), ["main.ts"]),
    lines("dual -> dual/main.cjs", "module-only -> module-only/index.js", "with-exports -> with-exports/exported.cjs"),
  );
});

test("--main-fields module,main prefers module; exports still win", () => {
  assert.equal(
    runOk(fixture("main-fields"), ["--main-fields", "module,main", "main.ts"]),
    lines("dual -> dual/esm/index.mjs", "module-only -> module-only/module.mjs", "with-exports -> with-exports/exported.cjs"),
  );
});

test("--main-fields applies to require() too", () => {
  assert.equal(runOk(fixture("main-fields"), ["require.cts"]), lines("require dual -> dual/main.cjs"));
  assert.equal(runOk(fixture("main-fields"), ["--main-fields", "module,main", "require.cts"]), lines("require dual -> dual/esm/index.mjs"));
});

test("--main-fields skips fields a package lacks", () => {
  assert.equal(
    runOk(fixture("main-fields"), ["--main-fields=browser,main", "main.ts"]),
    lines("dual -> dual/main.cjs", "module-only -> module-only/index.js", "with-exports -> with-exports/exported.cjs"),
  );
});

// ---------------------------------------------------------------------------------------------
// Symlinks

/** The symlinks fixture, copied to a temp dir with its symlinks added (see its README.md). */
function symlinkProject(t) {
  const dir = realpathSync(tempDir(t, "rt-symlinks-"));
  cpSync(fixture("symlinks"), dir, { recursive: true });
  symlinkSync("real/main.ts", path.join(dir, "link-main.ts"));
  symlinkSync("real/cjs.cts", path.join(dir, "link-cjs.cts"));
  symlinkSync("../real/dep.ts", path.join(dir, "app", "linked-dep.ts"));
  symlinkSync("../real", path.join(dir, "app", "linked-dir"), "dir");
  const modules = path.join(dir, "app", "node_modules");
  mkdirSync(modules);
  symlinkSync("../../packages/linked-pkg", path.join(modules, "linked-pkg"), "dir");
  return dir;
}

test("a symlinked entry runs under its real path by default", (t) => {
  const dir = symlinkProject(t);
  const real = path.join(dir, "real", "main.ts");
  const out = JSON.parse(runOk(dir, ["link-main.ts"]));
  assert.deepEqual(
    { argv1: out.argv1, filename: out.filename, isMain: out.isMain, dep: out.dep },
    { argv1: real, filename: real, isMain: true, dep: path.join(dir, "real", "dep.ts") },
  );
});

test("rt.main is the path the entry runs under (a symlinked entry's real path)", (t) => {
  const dir = symlinkProject(t);
  const out = JSON.parse(runOk(dir, ["link-main.ts"]));
  assert.equal(out.rtMain, out.argv1);
});

test("--preserve-symlinks-main keeps the entry's symlinked path; its imports resolve from there", (t) => {
  const dir = symlinkProject(t);
  const link = path.join(dir, "link-main.ts");
  const out = JSON.parse(runOk(dir, ["--preserve-symlinks-main", "link-main.ts"]));
  assert.deepEqual(out, {
    argv1: link,
    filename: link,
    rtMain: link,
    isMain: true,
    // As in Node: relative imports of a module kept at its symlink path start from the symlink's directory.
    dep: `next to the link: ${path.join(dir, "dep.ts")}`,
  });
});

test("--preserve-symlinks-main with a CommonJS entry: __filename and argv[1] keep the link", (t) => {
  const dir = symlinkProject(t);
  const link = path.join(dir, "link-cjs.cts");
  assert.deepEqual(JSON.parse(runOk(dir, ["--preserve-symlinks-main", "link-cjs.cts"])), { argv1: link, filename: link, isMain: true });
  const real = path.join(dir, "real", "cjs.cts");
  assert.deepEqual(JSON.parse(runOk(dir, ["link-cjs.cts"])), { argv1: real, filename: real, isMain: true });
});

test("--preserve-symlinks alone does not apply to the entry (as in Node)", (t) => {
  const dir = symlinkProject(t);
  const real = path.join(dir, "real", "main.ts");
  const out = JSON.parse(runOk(dir, ["--preserve-symlinks", "link-main.ts"]));
  assert.deepEqual({ argv1: out.argv1, filename: out.filename, dep: out.dep }, { argv1: real, filename: real, dep: path.join(dir, "real", "dep.ts") });
});

test("relative imports of symlinked files resolve to real paths by default", (t) => {
  const dir = symlinkProject(t);
  const out = JSON.parse(runOk(dir, ["app/app.ts"]));
  assert.deepEqual(out, {
    dep: path.join(dir, "real", "dep.ts"),
    viaDir: path.join(dir, "real", "dep.ts"),
    pkg: path.join(dir, "packages", "linked-pkg", "index.cjs"),
  });
});

test("--preserve-symlinks keeps the symlinked paths of relative imports", (t) => {
  const dir = symlinkProject(t);
  const out = JSON.parse(runOk(dir, ["--preserve-symlinks", "app/app.ts"]));
  assert.deepEqual(
    { dep: out.dep, viaDir: out.viaDir },
    { dep: path.join(dir, "app", "linked-dep.ts"), viaDir: path.join(dir, "app", "linked-dir", "dep.ts") },
  );
});

test("--preserve-symlinks keeps the symlinked path of a package in node_modules", (t) => {
  const dir = symlinkProject(t);
  const out = JSON.parse(runOk(dir, ["--preserve-symlinks", "app/app.ts"]));
  assert.equal(out.pkg, path.join(dir, "app", "node_modules", "linked-pkg", "index.cjs"));
});

// ---------------------------------------------------------------------------------------------
// The "rt" module

test('the "rt" module: named, default and namespace imports, require("rt") and globalThis.rt', () => {
  const dir = fixture("rt-module");
  const main = path.join(dir, "main.ts");
  const expected = lines(
    `version: ${RT_VERSION}`,
    `main: ${main}`,
    "default is globalThis.rt: true",
    `namespace version: ${RT_VERSION}`,
    `default.main: ${main}`,
    `entry filename: ${main}`,
    `from CommonJS: ${JSON.stringify({ sameAsGlobal: true, version: RT_VERSION, main })}`,
  );
  assert.equal(runOk(dir, ["main.ts"]), expected);
  // rt.main is absolute whatever the working directory.
  assert.equal(runOk(path.join(dir, "sub"), ["../main.ts"]), expected);
});

test("rt.main is a CommonJS entry's __filename", () => {
  const dir = fixture("rt-module");
  const entry = path.join(dir, "entry.cts");
  assert.deepEqual(JSON.parse(runOk(dir, ["entry.cts"])), { same: true, version: RT_VERSION, main: entry, filename: entry });
});

test("rt's version matches rt --version", () => {
  const result = rt(["--version"]);
  assert.deepEqual({ code: result.code, version: result.stdout.split(" ")[0] }, { code: 0, version: RT_VERSION });
});

// ---------------------------------------------------------------------------------------------
// Type declarations of "rt"

const TSC = path.join(REPO, "node_modules", ".bin", "tsc");
const TYPES_FIXTURE = path.join(FIXTURES, "rt-types");

function tsc(args) {
  const result = spawnSync(process.execPath, [TSC, ...args], { cwd: TYPES_FIXTURE, encoding: "utf8", timeout: 120_000 });
  if (result.error) throw result.error;
  return { code: result.status, output: result.stdout + result.stderr };
}

test('the workspace links node_modules/rt-runtime to runtime/, whose types/ the fixture tsconfig names ("types": ["rt-runtime"])', () => {
  assert.equal(realpathSync(path.join(REPO, "node_modules", "rt-runtime")), realpathSync(path.join(REPO, "runtime")));
});

test('tsc accepts the "rt" module and the rt global', () => {
  assert.deepEqual(tsc(["-p", TYPES_FIXTURE, "--noEmit", "--pretty", "false"]), { code: 0, output: "" });
});

test("tsc rejects a string member of rt used as a number, a possibly-null secret used as a string, a number as a secret, a fetch handler returning a string", () => {
  const result = tsc(["-p", path.join(TYPES_FIXTURE, "tsconfig.wrong.json"), "--noEmit", "--pretty", "false"]);
  assert.notEqual(result.code, 0);
  assert.deepEqual(result.output.trim().split("\n"), [
    "wrong-types.ts(4,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    "wrong-types.ts(5,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    "wrong-types.ts(6,53): error TS2322: Type 'string | null' is not assignable to type 'string'.",
    "  Type 'null' is not assignable to type 'string'.",
    "wrong-types.ts(7,76): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.",
    "wrong-types.ts(8,57): error TS2322: Type 'string' is not assignable to type 'Promise<Response> | Response'.",
  ]);
});

test("the type-checked file runs under rt with the values its types promise", () => {
  const out = JSON.parse(runOk(TYPES_FIXTURE, ["uses-rt.ts"]));
  assert.deepEqual(out, {
    v: RT_VERSION,
    m: path.join(TYPES_FIXTURE, "uses-rt.ts"),
    fromGlobal: RT_VERSION,
    same: true,
    secrets: ["get", "set", "delete"],
    stores: ["function", "object"],
  });
});
