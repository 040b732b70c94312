// Auto-install against a local npm registry (verdaccio, offline, started by
// test/support/registry.mjs) with the fixture packages of test/fixtures/install/packages. Each
// test runs in a temporary directory (no node_modules up the tree unless the test makes one)
// with a cache root of its own.
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { startRegistry } from "../../test/support/registry.mjs";
import { freePort } from "../../test/support/servers.mjs";
import { FIXTURES, rt, rtAsync, tempDir } from "./rt.mjs";

const PACKAGES = path.join(FIXTURES, "install", "packages");
const APP = path.join(FIXTURES, "install", "app");
const MAIN_OUTPUT = [
  "hello rt from rt-greet 2.0.0",
  "hello rt from rt-greet 1.0.0",
  "HELLO RT FROM RT-GREET 1.0.0",
  "hello rt from rt-greet 1.0.0, through rt-uses-greet",
  "@rt-fixture/scoped 1.0.0 @rt-fixture/scoped/lib/deep",
  "",
].join("\n");

describe("auto-install from a local registry", () => {
  let registry;
  before(async () => {
    registry = await startRegistry();
    for (const dir of ["rt-greet-1.0.0", "rt-greet-2.0.0", "rt-uses-greet-1.0.0", "scoped-1.0.0", "rt-broken-dep-1.0.0", "rt-fresh-1.0.0", "private-1.0.0"]) {
      await registry.publish(path.join(PACKAGES, dir));
    }
  });
  after(() => registry?.stop());

  /** A copy of the fixture app in a fresh directory, and a cache root of its own. */
  const project = (t, files = {}) => {
    const dir = tempDir(t, "rt-install-");
    cpSync(APP, path.join(dir, "app"), { recursive: true });
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, "app", file)), { recursive: true });
      writeFileSync(path.join(dir, "app", file), text);
    }
    return { app: path.join(dir, "app"), cache: path.join(dir, "cache") };
  };
  const run = ({ app, cache }, args, env = {}) =>
    rt(args, { cwd: app, env: { npm_config_registry: registry.url, npm_config_fetch_retries: "0", XDG_CACHE_HOME: cache, ...env } });
  const ok = (result, stdout) => assert.deepEqual([result.stdout, result.stderr, result.code], [stdout, "", 0]);
  const storeEntries = ({ cache }) => readdirSync(path.join(cache, "rt", "install", "store")).sort();
  const deadRegistry = async () => `http://127.0.0.1:${await freePort()}`;

  test("no node_modules: bare imports install (latest, specifier versions, subpaths, scoped, a package's own ranges), then run from the cache offline", async (t) => {
    const dir = project(t);
    ok(run(dir, ["main.ts"]), MAIN_OUTPUT);
    assert.deepEqual(
      storeEntries(dir).map((entry) => entry.replace(/-[0-9a-f]{16}$/, "")),
      ["@rt-fixture+scoped@1.0.0", "rt-greet@1.0.0", "rt-greet@2.0.0", "rt-uses-greet@1.0.0"],
    );
    // Built-ins and URLs are never packages.
    ok(
      run(dir, ["-e", 'import fs from "fs"; import one from "data:text/javascript,export default 1"; console.log(typeof fs.readFileSync, one)']),
      "function 1\n",
    );
    // Warm: nothing asks the registry.
    ok(run(dir, ["main.ts"], { npm_config_registry: await deadRegistry() }), MAIN_OUTPUT);
  });

  test("versions come from package.json when it names the package", (t) => {
    const dir = project(t, { "package.json": JSON.stringify({ dependencies: { "rt-greet": "^1.0.0" } }) });
    ok(run(dir, ["greet.ts"]), "hello rt from rt-greet 1.0.0\n");
  });

  test("--install=auto with a node_modules up the tree installs nothing", (t) => {
    const dir = project(t, { "node_modules/.keep": "" });
    const result = run(dir, ["greet.ts"]);
    assert.deepEqual([result.stdout, result.stderr, result.code], ["", `error: Cannot find module 'rt-greet' from '${path.join(dir.app, "greet.ts")}'\n`, 1]);
    assert.equal(existsSync(path.join(dir.cache, "rt", "install")), false);
  });

  test("-i / --install=fallback: only packages missing from node_modules are installed", (t) => {
    const dir = project(t, {
      "node_modules/rt-greet/package.json": JSON.stringify({ name: "rt-greet", version: "0.0.1", main: "index.js" }),
      "node_modules/rt-greet/index.js": "module.exports = (name) => `hello ${name} from node_modules`;",
      "both.ts": 'import greet from "rt-greet";\nimport { scoped } from "@rt-fixture/scoped";\nconsole.log(greet("rt"), "/", scoped);\n',
    });
    const expected = "hello rt from node_modules / @rt-fixture/scoped 1.0.0\n";
    ok(run(dir, ["-i", "both.ts"]), expected);
    ok(run(dir, ["--install=fallback", "both.ts"]), expected);
    assert.deepEqual(
      storeEntries(dir).map((entry) => entry.replace(/-[0-9a-f]{16}$/, "")),
      ["@rt-fixture+scoped@1.0.0"],
    );
    // A missing file of an installed package is an error, not a reason to install.
    const deep = run(dir, ["-i", "-e", 'import "rt-greet/missing.js"']);
    assert.equal(deep.code, 1);
    assert.match(deep.stderr, /^error: Cannot find module 'rt-greet\/missing.js'/);
  });

  test("--install=force uses the cache even when node_modules has the package", (t) => {
    const dir = project(t, {
      "node_modules/rt-greet/package.json": JSON.stringify({ name: "rt-greet", version: "0.0.1", main: "index.js" }),
      "node_modules/rt-greet/index.js": "module.exports = () => 'from node_modules';",
    });
    ok(run(dir, ["--install=force", "greet.ts"]), "hello rt from rt-greet 2.0.0\n");
    // The same from rtfig.toml.
    writeFileSync(path.join(dir.app, "rtfig.toml"), 'install = "force"\n');
    ok(run(dir, ["greet.ts"]), "hello rt from rt-greet 2.0.0\n");
  });

  test("--no-install: a bare import not in node_modules is not found", (t) => {
    const dir = project(t);
    const result = run(dir, ["--no-install", "greet.ts"]);
    assert.deepEqual([result.stdout, result.stderr, result.code], ["", `error: Cannot find module 'rt-greet' from '${path.join(dir.app, "greet.ts")}'\n`, 1]);
  });

  test("a package the registry does not have: the registry's message, exit 1", (t) => {
    const dir = project(t);
    const result = run(dir, ["missing.ts"]);
    assert.deepEqual(
      [result.stdout, result.stderr, result.code],
      ["", `error: could not install "rt-not-in-the-registry": 404 Not Found - GET ${registry.url}/rt-not-in-the-registry - no such package available\n`, 1],
    );
    const version = run(dir, ["-e", 'import "rt-greet@9"']);
    assert.equal(version.code, 1);
    assert.match(version.stderr, /^error: could not install "rt-greet@9": No matching version found for rt-greet@9\.?.*\n$/);
    const unreachable = run(dir, ["greet.ts"], { npm_config_registry: "http://127.0.0.1:9" });
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /^error: could not install "rt-greet": .*ECONNREFUSED.*\n$/);
  });

  test("a dependency missing from the registry names that dependency", (t) => {
    const dir = project(t);
    const result = run(dir, ["-e", 'import "rt-broken-dep"']);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `error: could not install "rt-not-published@^1.0.0": 404 Not Found - GET ${registry.url}/rt-not-published - no such package available\n`,
    );
  });

  test("a tampered cache entry is detected and fetched again", (t) => {
    const dir = project(t);
    ok(run(dir, ["greet.ts"]), "hello rt from rt-greet 2.0.0\n");
    const [entry] = storeEntries(dir).filter((name) => name.startsWith("rt-greet@2.0.0"));
    const file = path.join(dir.cache, "rt", "install", "store", entry, "node_modules", "rt-greet", "index.js");
    const original = readFileSync(file, "utf8");
    writeFileSync(file, "export default () => 'tampered';\n");
    ok(run(dir, ["greet.ts"]), "hello rt from rt-greet 2.0.0\n");
    assert.equal(readFileSync(file, "utf8"), original);
  });

  test("staleness: cached ranges are used for a day; --prefer-latest asks every run, --prefer-offline never", async (t) => {
    const dir = project(t);
    ok(run(dir, ["fresh.cjs"]), "rt-fresh 1.0.0\n");
    await registry.publish(path.join(PACKAGES, "rt-fresh-1.1.0"));
    ok(run(dir, ["fresh.cjs"]), "rt-fresh 1.0.0\n");
    ok(run(dir, ["--prefer-latest", "fresh.cjs"]), "rt-fresh 1.1.0\n");
    await registry.publish(path.join(PACKAGES, "rt-fresh-1.2.0"));
    // Two days later:
    const indexFile = path.join(dir.cache, "rt", "install", "index", "rt-fresh.json");
    const index = JSON.parse(readFileSync(indexFile, "utf8"));
    for (const range of Object.values(index.ranges)) range.fetched -= 2 * 24 * 60 * 60 * 1000;
    writeFileSync(indexFile, JSON.stringify(index));
    ok(run(dir, ["--prefer-offline", "fresh.cjs"]), "rt-fresh 1.1.0\n");
    // Stale and the registry unreachable: the cached answer, silently.
    ok(run(dir, ["fresh.cjs"], { npm_config_registry: await deadRegistry() }), "rt-fresh 1.1.0\n");
    ok(run(dir, ["fresh.cjs"]), "rt-fresh 1.2.0\n");
  });

  test("the registry comes from the project's .npmrc (with ${VAR} expansion) when no npm_config_registry is set", (t) => {
    const dir = project(t, { "package.json": "{}", ".npmrc": "registry=${RT_TEST_REGISTRY}\n" });
    ok(run(dir, ["greet.ts"], { npm_config_registry: "", RT_TEST_REGISTRY: registry.url }), "hello rt from rt-greet 2.0.0\n");
  });

  test("credentials come from .npmrc (//host/:_authToken) and never appear in the output", (t) => {
    const host = registry.url.replace(/^http:/, "");
    const dir = project(t, { "private.cjs": 'console.log(require("@rt-private/secret"));\n', ".npmrc": `${host}/:_authToken=\${RT_TEST_TOKEN}\n` });
    const denied = run(dir, ["private.cjs"], { RT_TEST_TOKEN: "not-the-token" });
    assert.deepEqual(
      [denied.stdout, denied.stderr, denied.code],
      ["", 'error: could not install "@rt-private/secret": Unable to authenticate, need: Basic, Bearer\n', 1],
    );
    const allowed = run(dir, ["private.cjs"], { RT_TEST_TOKEN: registry.token });
    ok(allowed, "@rt-private/secret 1.0.0\n");
  });

  test("an unknown --install mode is a usage error naming the flag", (t) => {
    const result = run(project(t), ["--install=bogus", "greet.ts"]);
    assert.deepEqual([result.stdout, result.stderr, result.code], ["", 'rt: invalid value "bogus" for --install; valid values: auto, fallback, force\n', 2]);
  });

  test("concurrent rt processes share an empty cache safely", async (t) => {
    const dir = project(t);
    const env = { npm_config_registry: registry.url, XDG_CACHE_HOME: dir.cache };
    const results = await Promise.all(Array.from({ length: 4 }, () => rtAsync(["main.ts"], { cwd: dir.app, env })));
    for (const result of results) ok(result, MAIN_OUTPUT);
    assert.deepEqual(
      storeEntries(dir).map((entry) => entry.replace(/-[0-9a-f]{16}$/, "")),
      ["@rt-fixture+scoped@1.0.0", "rt-greet@1.0.0", "rt-greet@2.0.0", "rt-uses-greet@1.0.0"],
    );
  });
});
