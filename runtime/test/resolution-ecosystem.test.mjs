// Resolution as real npm projects need it (issue 18): packages without `exports` reached by
// subpaths and nested package.json `main`s from ES modules, entry points naming compiled output
// that only exists as TypeScript, the tsconfig nearest to each file, Node's error codes, and
// auto-install only after everything else had its turn. Each case runs a fixture under rt.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES, rt, runOk } from "./rt.mjs";

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
      "esm-lib/merge -> {\"a\":1,\"b\":2}",
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

test("a subpath rt cannot find keeps Node's \"Did you mean\" hint", () => {
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
  assert.equal(runOk(dir, ["main.ts"]), lines("@acme/util -> src/index.ts", ...expected));
  assert.equal(runOk(dir, ["require.cts"]), lines(...expected));
});
