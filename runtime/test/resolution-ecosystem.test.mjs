// Resolution as real npm projects need it (issue 18): packages without `exports` reached by
// subpaths and nested package.json `main`s from ES modules, entry points naming compiled output
// that only exists as TypeScript, the tsconfig nearest to each file, Node's error codes, and
// auto-install only after everything else had its turn. Each case runs a fixture under rt.
import assert from "node:assert/strict";
import { cpSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES, rt, runOk, tempDir } from "./rt.mjs";

const fixture = (name) => path.join(FIXTURES, "resolution", name);
const lines = (...items) => items.map((line) => `${line}\n`).join("");

// ---------------------------------------------------------------------------------------------
// Packages without "exports"

test("ES modules reach subpaths without extension, directories and nested package.json mains of packages without exports", () => {
  assert.equal(
    runOk(fixture("bare-subpaths"), ["main.ts"]),
    lines(
      "plain-lib/plugin/utc -> plugin/utc.js",
      "plain-lib/functions/gt -> true",
      "plain-lib/fp -> fp.js (the file wins over the fp/ directory)",
      "plain-lib/dir -> dir/index.js",
      'esm-lib/merge -> {"a":1,"b":2}',
      "nested-main/subpath -> lib/subpath.js, by subpath/package.json main",
    ),
  );
});

test("require() resolves the same subpaths", () => {
  assert.equal(
    runOk(fixture("bare-subpaths"), ["require.cts"]),
    lines("plain-lib/plugin/utc -> plugin/utc.js", "nested-main/subpath -> lib/subpath.js, by subpath/package.json main"),
  );
});

test("the default JSX transform finds jsx-dev-runtime in a JSX library without exports", () => {
  assert.equal(runOk(fixture("bare-subpaths"), ["app.tsx"]), lines("dev:<b>hello jsx</b>"));
});

test('a subpath rt cannot find keeps Node\'s "Did you mean" hint', () => {
  const dir = fixture("bare-subpaths");
  const result = rt(["--extension-order=.ts", "main.ts"], { cwd: dir });
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    `error: Cannot find module 'plain-lib/plugin/utc' from '${path.join(dir, "main.ts")}'\nDid you mean to import "plain-lib/plugin/utc.js"?\n`,
  );
});

// ---------------------------------------------------------------------------------------------
// Entry points naming output that only exists as source

test("main, exports and imports targets ending in .js load the .ts source when the output is not there", () => {
  const expected = ["@acme/util/feature -> src/feature.ts", "legacy-lib -> src/index.ts", "#internal -> src/internal.ts"];
  const dir = fixture("source-entries");
  assert.equal(
    runOk(dir, ["main.ts"]),
    lines("@acme/util -> src/index.ts", ...expected, "linked-ws (a workspace linked into node_modules) -> packages/linked-ws/src/index.ts"),
  );
  assert.equal(runOk(dir, ["require.cts"]), lines(...expected));
});

test("with target.ts and target.js.ts both there, ./target.js means target.ts", () => {
  assert.equal(runOk(fixture("double-extension"), ["main.ts"]), lines("./target.js -> target.ts"));
});

// ---------------------------------------------------------------------------------------------
// tsconfig.json

test("tsconfig: ${configDir} in an extended config is the directory of the config that extends it", () => {
  assert.equal(runOk(fixture("tsconfig-configdir"), ["main.ts"]), lines("@cfg/hello -> src/hello.ts"));
});

test("tsconfig: an extends that cannot be found is one warning line each, and the program runs", () => {
  const result = rt(["main.ts"], { cwd: fixture("tsconfig-missing-extends") });
  assert.deepEqual(result, {
    code: 0,
    signal: null,
    stdout: lines("@here -> here.ts"),
    stderr: lines(
      'rt: warning: tsconfig.json: "extends": cannot find tsconfig "@tsconfig/not-installed/tsconfig.json"; going on without it',
      'rt: warning: tsconfig.json: "extends": cannot find tsconfig "./also-missing"; going on without it',
    ),
  });
});

test("tsconfig paths leave data: and node: URLs alone and apply to specifiers with a ?query", () => {
  assert.equal(runOk(fixture("paths-urls"), ["main.ts"]), lines('node:path sep -> "/"', "data: -> data: URL", "@/hello -> src/hello.ts?v=1"));
});

test("the tsconfig nearest to the file applies: its paths, and jsxFactory without jsx means classic JSX", () => {
  assert.equal(runOk(fixture("nearest-tsconfig"), ["app/src/main.tsx"]), lines("@lib -> app/src/lib.ts", "classic JSX -> <i>h()</i>"));
});

// ---------------------------------------------------------------------------------------------
// Node's codes and URL rules, in plain JavaScript too

test("require() of a missing module throws MODULE_NOT_FOUND; import specifiers are URLs (%3F, #hash in normal form)", () => {
  assert.equal(
    runOk(fixture("node-compat"), ["main.mjs"]),
    lines(
      'require("./missing") -> MODULE_NOT_FOUND',
      'require("missing-package") -> MODULE_NOT_FOUND',
      'import("./missing.mjs") -> ERR_MODULE_NOT_FOUND',
      "./what%3F.mjs -> what?.mjs",
      // Node throws a URIError here; rt (as bun) takes the literal name.
      "./100%.mjs (no escape: the literal name) -> 100%.mjs",
      "#hello world and #hello%20world -> one module 1",
    ),
  );
  assert.equal(runOk(fixture("node-compat"), ["require.cjs"]), lines('require("./missing") -> MODULE_NOT_FOUND'));
});

test("Node's resolution errors keep their code in the header and print no Node-internal stack", () => {
  const dir = fixture("node-compat");
  const sub = path.join(dir, "node_modules", "dir-exports", "utils", "sub");
  const result = rt(["dir-import.mjs"], { cwd: dir });
  assert.deepEqual(result, {
    code: 1,
    signal: null,
    stdout: "",
    stderr: `Error [ERR_UNSUPPORTED_DIR_IMPORT]: Directory import '${sub}' is not supported resolving ES modules imported from ${path.join(dir, "dir-import.mjs")}\n`,
  });
});

test("a module error with only Node's frames on its stack prints its header line alone", () => {
  const result = rt(["unknown-builtin.mjs"], { cwd: fixture("node-compat") });
  assert.deepEqual(result, {
    code: 1,
    signal: null,
    stdout: "",
    stderr: "Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:nonexistent\n",
  });
});

test("an uncaught Node error shows its code in the header, as Node prints it", (t) => {
  const dir = tempDir(t);
  writeFileSync(path.join(dir, "main.cjs"), 'require("node:fs").readFileSync({});\n');
  const result = rt(["main.cjs"], { cwd: dir });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^TypeError \[ERR_INVALID_ARG_TYPE\]: The "path" argument must be of type string/m);
});

// ---------------------------------------------------------------------------------------------
// Auto-install comes last

/** The user-hooks fixture in a directory with no node_modules up to the root, where rt auto-installs. */
function withoutNodeModules(t) {
  const dir = tempDir(t);
  cpSync(fixture("user-hooks"), dir, { recursive: true });
  // An unreachable registry and an empty cache: any install attempt fails loudly.
  const env = { npm_config_registry: "http://127.0.0.1:9/", XDG_CACHE_HOME: path.join(dir, ".cache") };
  return { dir, env };
}

for (const [how, options, from] of [
  ["module.registerHooks in an --import preload", "--import ./hooks.mjs", "the user hook"],
  ["module.register in an --import preload", "--import ./register.mjs", "the async hook"],
  ["--experimental-loader", "--no-warnings --experimental-loader ./async-hooks.mjs", "the async hook"],
]) {
  test(`resolve hooks from ${how} and tsconfig paths resolve before auto-install is tried`, (t) => {
    const { dir, env } = withoutNodeModules(t);
    const result = rt(["main.ts"], { cwd: dir, env: { ...env, NODE_OPTIONS: options } });
    assert.deepEqual(
      { code: result.code, stdout: result.stdout, stderr: result.stderr },
      { code: 0, stdout: lines(`from ${from}`, "@app/util -> src/util.ts"), stderr: "" },
    );
  });
}

test('import "@lib" (no such package name) without node_modules is a clean "Cannot find module"', (t) => {
  const { dir, env } = withoutNodeModules(t);
  const result = rt(["no-package.ts"], { cwd: dir, env });
  assert.deepEqual(
    { code: result.code, stdout: result.stdout, stderr: result.stderr },
    { code: 1, stdout: "", stderr: `error: Cannot find module '@lib' from '${path.join(realpathSync(dir), "no-package.ts")}'\n` },
  );
});
