// FileResolver as a table: a small project written to a temporary directory, then each row a
// request (a path, a bare specifier from a directory, a missing output file) and the file rt's
// rules name, or undefined where Node's resolver decides: the rules on the real disk. (Whole
// specifiers, tsconfig paths among them, are resolve-specifier.test.ts's table, in memory.)
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, test } from "node:test";
import { FileResolver, packageName } from "./resolve.js";

const root = realpathSync(mkdtempSync(path.join(tmpdir(), "rt-resolve-")));
after(() => rmSync(root, { recursive: true, force: true }));

const FILES: Record<string, string | object> = {
  "app/both.tsx": "",
  "app/both.ts": "",
  "app/out.ts": "",
  "app/target.ts": "",
  "app/target.js.ts": "",
  "app/dir/index.ts": "",
  "app/main-dir/package.json": { main: "./start" },
  "app/main-dir/start.ts": "",
  "app/node_modules/plain/package.json": { name: "plain", main: "lib/index" },
  "app/node_modules/plain/lib/index.js": "",
  "app/node_modules/plain/fp.js": "",
  "app/node_modules/plain/fp/index.js": "",
  "app/node_modules/plain/nested/package.json": { main: "../lib/index.js" },
  "app/node_modules/plain/node_modules/inner/index.js": "",
  "app/node_modules/bare-index/index.js": "",
  "app/node_modules/exp/package.json": { name: "exp", exports: "./index.js" },
  "app/node_modules/exp/index.js": "",
  "app/node_modules/src-main/package.json": { main: "./src/index.js" },
  "app/node_modules/src-main/src/index.ts": "",
};
for (const [file, contents] of Object.entries(FILES)) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), typeof contents === "string" ? contents : JSON.stringify(contents));
}

const resolver = new FileResolver({
  extensions: [".tsx", ".ts", ".jsx", ".js", ".json"],
  preserveSymlinks: false,
});
const at = (file: string | undefined) => file && path.relative(root, file);

for (const [request, expected] of [
  ["app/both", "app/both.tsx"],
  ["app/out.js", "app/out.ts"],
  // The source of the output named, before appending extensions to the output's name.
  ["app/target.js", "app/target.ts"],
  ["app/dir", "app/dir/index.ts"],
  ["app/dir/", "app/dir/index.ts"],
  ["app/both/", undefined],
  ["app/main-dir", "app/main-dir/start.ts"],
  ["app/missing", undefined],
] as const) {
  test(`resolvePath ${request} -> ${expected}`, () => assert.equal(at(resolver.resolvePath(path.join(root, request))), expected));
}

for (const [specifier, from, expected] of [
  ["plain", "app", "app/node_modules/plain/lib/index.js"],
  // The file beside a directory of the same name wins, as in require().
  ["plain/fp", "app/dir", "app/node_modules/plain/fp.js"],
  ["plain/nested", "app", "app/node_modules/plain/lib/index.js"],
  ["plain/missing", "app", undefined],
  ["inner", "app/node_modules/plain/lib", "app/node_modules/plain/node_modules/inner/index.js"],
  ["bare-index", "app", "app/node_modules/bare-index/index.js"],
  ["src-main", "app", "app/node_modules/src-main/src/index.ts"],
  // A package with exports is Node's to resolve.
  ["exp", "app", undefined],
  ["not-installed", "app", undefined],
] as const) {
  test(`resolveBare ${specifier} from ${from} -> ${expected}`, () => {
    assert.equal(at(resolver.resolveBare(specifier, path.join(root, from))), expected);
  });
}

test("a file reached through symlinked directories resolves to its real path; a symlinked file too", () => {
  const linked = path.join(root, "linked");
  mkdirSync(path.join(linked, "node_modules"), { recursive: true });
  symlinkSync(path.join(root, "app/node_modules/plain"), path.join(linked, "node_modules/plain"), "dir");
  symlinkSync(path.join(root, "app"), path.join(linked, "app"), "dir");
  symlinkSync(path.join(root, "app/out.ts"), path.join(linked, "out-link.ts"));
  assert.equal(at(resolver.resolvePath(path.join(linked, "node_modules/plain/fp"))), "app/node_modules/plain/fp.js");
  assert.equal(at(resolver.resolvePath(path.join(linked, "app/both"))), "app/both.tsx");
  assert.equal(at(resolver.resolvePath(path.join(linked, "out-link"))), "app/out.ts");
  // Kept symlinks (--preserve-symlinks) keep the path as given.
  assert.equal(at(resolver.resolvePath(path.join(linked, "app/both"), true)), "linked/app/both.tsx");
});

test("what a path inside node_modules resolved to is kept; a project's own paths are looked up again", () => {
  const dir = path.join(root, "again");
  const write = (file: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), "");
  };
  write("node_modules/pkg/util.js");
  write("own/util.js");
  const fresh = new FileResolver({ extensions: [".tsx", ".ts", ".jsx", ".js", ".json"], preserveSymlinks: false });
  assert.equal(at(fresh.resolvePath(path.join(dir, "node_modules/pkg/util"))), "again/node_modules/pkg/util.js");
  assert.equal(at(fresh.resolvePath(path.join(dir, "own/util"))), "again/own/util.js");
  // A program writes util.ts beside util.js: its own import of ./util now finds the source.
  write("own/util.ts");
  assert.equal(at(fresh.resolvePath(path.join(dir, "own/util"))), "again/own/util.ts");
  // An installed package does not change while the program runs: its first answer stands,
  // as require() keeps it (Module._pathCache).
  renameSync(path.join(dir, "node_modules/pkg/util.js"), path.join(dir, "node_modules/pkg/util.jsx"));
  assert.equal(at(fresh.resolvePath(path.join(dir, "node_modules/pkg/util"))), "again/node_modules/pkg/util.js");
  // A miss is never kept.
  assert.equal(fresh.resolvePath(path.join(dir, "node_modules/pkg/late")), undefined);
  write("node_modules/pkg/late.js");
  assert.equal(at(fresh.resolvePath(path.join(dir, "node_modules/pkg/late"))), "again/node_modules/pkg/late.js");
});

test("fromInstalled keeps what a request from inside node_modules resolved to; a project's requests and misses are asked again", () => {
  const fresh = new FileResolver({ extensions: [".ts", ".js"], preserveSymlinks: false });
  let asked = 0;
  const answer = (value: string | undefined) => () => (asked++, value);
  const installed = path.join(root, "app/node_modules/plain/lib");
  assert.equal(fresh.fromInstalled(installed, "require\0./a", answer("file:///a.js")), "file:///a.js");
  assert.equal(fresh.fromInstalled(installed, "require\0./a", answer("file:///other.js")), "file:///a.js");
  assert.equal(asked, 1);
  assert.equal(fresh.fromInstalled(installed, "import\0./a", answer("file:///b.js")), "file:///b.js", "another request");
  assert.equal(fresh.fromInstalled(path.join(root, "app/node_modules/plain/fp"), "require\0./a", answer("file:///c.js")), "file:///c.js", "another directory");
  assert.equal(fresh.fromInstalled(installed, "require\0./missing", answer(undefined)), undefined);
  assert.equal(fresh.fromInstalled(installed, "require\0./missing", answer("file:///late.js")), "file:///late.js");
  asked = 0;
  const own = path.join(root, "app");
  fresh.fromInstalled(own, "import\0./x", answer("file:///x.ts"));
  assert.equal(fresh.fromInstalled(own, "import\0./x", answer("file:///x.tsx")), "file:///x.tsx");
  assert.equal(asked, 2);
});

test("sourceFor maps a missing .js output to its .ts source, and nothing else", () => {
  assert.equal(at(resolver.sourceFor(path.join(root, "app/out.js"))), "app/out.ts");
  assert.equal(resolver.sourceFor(path.join(root, "app/missing.js")), undefined);
  assert.equal(resolver.sourceFor(path.join(root, "app/out")), undefined);
});

for (const [specifier, expected] of [
  ["lodash", "lodash"],
  ["lodash/fp", "lodash"],
  ["@scope/name/sub", "@scope/name"],
  ["@lib", undefined],
  ["@/a", undefined],
  ["#internal", undefined],
  ["./x", undefined],
] as const) {
  test(`packageName ${specifier} -> ${expected}`, () => assert.equal(packageName(specifier), expected));
}
