// The resolution policy as a table over a file system in memory: each row a specifier, how it
// is loaded (import or require) and what rt decides: the file it names (relative to /app), "node"
// where Node's resolver decides (with the conditions it is given), "cache" for the auto-install
// cache, or the code of the failure. runtime/test/resolver-table.test.mjs runs the same kinds of
// rows, in the same project, through real rt processes and Node's resolver.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import type { InstallStrategy } from "../install/auto-install.js";
import { FileResolver, type ResolveFs, type ResolveSettings } from "./resolve.js";
import { afterNodeFailed, type Resolution, resolutionError, resolveRequest, resolveSpecifier, type ResolveScope } from "./resolve-specifier.js";

const ROOT = "/app";

/**
 * The project both tables resolve in: path → contents (package.json files as objects); a
 * symbolic link as { link: target }.
 */
const FILES = JSON.parse(readFileSync(new URL("./resolution-project.json", import.meta.url), "utf8")) as Record<string, string | object>;

/** The files above, read as the disk would read them. */
function memoryFs(files: Record<string, string | object>): ResolveFs {
  const entries = new Map(Object.entries(files).map(([file, contents]) => [path.join(ROOT, file), contents]));
  const directories = new Set<string>();
  for (const file of entries.keys()) for (let dir = path.dirname(file); !directories.has(dir); dir = path.dirname(dir)) directories.add(dir);
  const linkOf = (file: string) => {
    const contents = entries.get(file);
    return typeof contents === "object" && "link" in contents ? (contents.link as string) : undefined;
  };
  return {
    isFile: (file) => entries.has(file) && (linkOf(file) === undefined || entries.has(linkOf(file)!)),
    isDirectory: (file) => directories.has(file.endsWith(path.sep) ? file.slice(0, -1) : file),
    realpath: (file) => linkOf(file) ?? file,
    readPackageJson: (file) => {
      const contents = entries.get(file);
      return typeof contents === "object" ? (contents as Record<string, unknown>) : undefined;
    },
  };
}

const FS = memoryFs(FILES);
const TSCONFIG = { base: ROOT, paths: (FILES["tsconfig.json"] as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths };
const SETTINGS: ResolveSettings = {
  extensions: [".tsx", ".ts", ".jsx", ".js", ".json"],
  preserveSymlinks: false,
  // The project's tsconfig for the project; none in node_modules (and baseUrl's rows use their own).
  tsconfigs: { forDirectory: (dir) => ({ paths: dir.includes("node_modules") ? undefined : TSCONFIG }) },
};

function scopeOf(overrides: Partial<ResolveScope> = {}, settings: ResolveSettings = SETTINGS): ResolveScope {
  return {
    resolver: new FileResolver(settings, FS),
    apiFile: "/rt/dist/api.cjs",
    entries: new Map([["/app/main.ts", "file:///app/main.ts"]]),
    virtual: new Map([["/app/[eval].tsx", "console.log(1)"]]),
    conditions: [],
    addons: true,
    macros: { allowed: true },
    ...overrides,
  };
}

const IMPORT = ["node", "import", "node-addons"];
const REQUIRE = ["node", "require", "node-addons"];

function requestOf(specifier: string, how: "import" | "require", from = "/app/main.ts", macro = false) {
  return resolveRequest(specifier, {
    parentURL: `file://${from}`,
    conditions: how === "import" ? IMPORT : REQUIRE,
    importAttributes: macro ? { type: "macro" } : {},
  });
}

function decide(specifier: string, how: "import" | "require", scope = scopeOf(), from?: string, macro?: boolean): Resolution {
  return resolveSpecifier(requestOf(specifier, how, from, macro), scope);
}

/** A resolution as a table cell. */
function shown(resolution: Resolution): string {
  switch (resolution.kind) {
    case "rt":
      return `rt ${resolution.url}`;
    case "url":
      return resolution.url.startsWith(`file://${ROOT}/`) ? resolution.url.slice(`file://${ROOT}/`.length) : resolution.url;
    case "node":
      return `node (${resolution.strategy})`;
    case "cache":
      return "cache";
    case "failure":
      return resolution.error.code;
  }
}

for (const [specifier, how, expected] of [
  // the "rt" module and the entry
  ["rt", "import", "rt file:///rt/dist/api.cjs"],
  ["rt", "require", "rt file:///rt/dist/api.cjs"],
  ["/app/main.ts", "import", "main.ts"],
  // relative: extension order, .js naming its .ts source, index files, a directory's main
  ["./both", "import", "both.tsx"],
  ["./both", "require", "both.tsx"],
  ["./both.ts", "import", "both.ts"],
  ["./out.js", "import", "out.ts"],
  ["./real.js", "import", "real.js"],
  ["./target.js", "import", "target.ts"],
  ["./data", "require", "data.json"],
  ["./dir", "import", "dir/index.ts"],
  ["./dir/", "import", "dir/index.ts"],
  ["./js-dir", "require", "js-dir/index.js"],
  ["./both/", "import", "ERR_MODULE_NOT_FOUND"],
  ["./main-dir", "import", "main-dir/start.ts"],
  ["../app/both.ts", "import", "both.ts"],
  ["./linked", "import", "real.ts"],
  ["./[eval].tsx", "import", "%5Beval%5D.tsx"],
  // as a URL through import, a path through require()
  ["./what%3F.ts", "import", "what%3F.ts"],
  ["./what?.ts", "require", "what%3F.ts"],
  ["./both.ts?raw", "import", "both.ts?raw"],
  ["./both.ts?raw", "require", "both.ts?raw"],
  ["./both.ts#frag", "import", "both.ts#frag"],
  ["./100%.ts", "import", "100%25.ts"],
  ["file:///app/both.ts", "import", "both.ts"],
  ["file:///app/both.ts", "require", "both.ts"],
  ["/app/dir", "require", "dir/index.ts"],
  ["./missing", "import", "ERR_MODULE_NOT_FOUND"],
  ["./missing", "require", "MODULE_NOT_FOUND"],
  ["file:///app/missing.ts", "require", "MODULE_NOT_FOUND"],
  // tsconfig paths: exact and wildcard patterns, the longest prefix first, targets in order
  ["@/a", "import", "src/a.ts"],
  ["@/a.js", "import", "src/a.ts"],
  ["@/a?v=1", "import", "src/a.ts?v=1"],
  ["@/deep/a", "import", "src/deep/a.ts"],
  ["~lib", "require", "src/lib.ts"],
  ["multi/lib", "import", "src/lib.ts"],
  ["@/missing", "import", "node (none)"],
  // an alias with a colon maps before the specifier is read as a URL
  ["ns:a", "import", "src/a.ts"],
  ["ns:deep/a", "require", "src/deep/a.ts"],
  ["ns:missing", "import", "node (none)"],
  // packages without exports: main, subpaths (a file before a directory), nested main, index
  ["plain", "import", "node_modules/plain/lib/index.js"],
  ["plain/sub", "import", "node_modules/plain/sub.js"],
  ["plain/sub", "require", "node_modules/plain/sub.js"],
  ["plain/only-dir", "import", "node_modules/plain/only-dir/index.js"],
  ["plain/nested", "import", "node_modules/plain/lib/nested.js"],
  ["plain/missing", "import", "node (none)"],
  ["bare-index", "import", "node_modules/bare-index/index.js"],
  ["fields", "import", "node_modules/fields/main.js"],
  ["src-main", "import", "node_modules/src-main/src/index.ts"],
  ["@scope/pkg", "import", "node_modules/@scope/pkg/index.ts"],
  ["plain?x", "import", "node_modules/plain/lib/index.js?x"],
  // inside node_modules a package's JavaScript before the sources it ships (outside: ./dir is dir/index.ts)
  ["dual", "import", "node_modules/dual/index.js"],
  ["dual/lib", "require", "node_modules/dual/lib.js"],
  ["./node_modules/dual/lib", "import", "node_modules/dual/lib.js"],
  // Node's: packages with exports, package imports, built-ins, URLs, names no package has
  ["exp", "import", "node (none)"],
  ["exp/feature", "require", "node (none)"],
  ["#x", "import", "node (none)"],
  ["node:path", "import", "node (none)"],
  ["fs", "require", "node (none)"],
  ["data:text/javascript,1", "import", "node (none)"],
  ["@lib", "import", "node (none)"],
  ["not-installed", "require", "node (none)"],
] as const) {
  test(`${specifier} (${how}) -> ${expected}`, () => assert.equal(shown(decide(specifier, how)), expected));
}

test("a package imported from inside node_modules: that package's node_modules first, no tsconfig paths", () => {
  const from = "/app/node_modules/plain/lib/index.js";
  assert.equal(shown(decide("inner", "import", scopeOf(), from)), "node_modules/plain/node_modules/inner/index.js");
  assert.equal(shown(decide("@/a", "import", scopeOf(), from)), "node (none)");
});

test("an importer that is a directory's URL (Node's --test-reporter modules: `${cwd}/`) resolves from that directory", () => {
  assert.equal(shown(decide("./both", "import", scopeOf(), "/app/")), "both.tsx");
});

test("'.' and '..' name the importer's directory and its parent", () => {
  assert.equal(shown(decide(".", "import", scopeOf(), "/app/dir/x.ts")), "dir/index.ts");
  assert.equal(shown(decide("..", "require", scopeOf(), "/app/dir/x/y.ts")), "dir/index.ts");
});

test("--main-fields: the first field the package has wins", () => {
  const scope = scopeOf({}, { ...SETTINGS, mainFields: ["module", "main"] });
  assert.equal(shown(decide("fields", "import", scope)), "node_modules/fields/module.js");
  assert.equal(shown(decide("plain", "import", scope)), "node_modules/plain/lib/index.js");
});

test("--preserve-symlinks keeps the link's path", () => {
  const scope = scopeOf({}, { ...SETTINGS, preserveSymlinks: true });
  assert.equal(shown(decide("./linked", "import", scope)), "linked.ts");
});

test("baseUrl: a bare specifier is tried under it after paths", () => {
  const scope = scopeOf({}, { ...SETTINGS, tsconfigs: { forDirectory: () => ({ paths: { base: ROOT, paths: {}, baseUrl: "/app/base" } }) } });
  assert.equal(shown(decide("helpers", "import", scope)), "base/helpers.ts");
  // A built-in's name stays Node's.
  assert.equal(shown(decide("util", "import", scope)), "node (none)");
  assert.equal(shown(decide("plain", "import", scope)), "node_modules/plain/lib/index.js");
});

test("a URL never takes a catch-all `*` alias or baseUrl; an alias spelled with its colon does", () => {
  const paths = { base: ROOT, paths: { "*": ["./src/*"], "x:*": ["./src/*"] }, baseUrl: "/app/src" };
  const scope = scopeOf({}, { ...SETTINGS, tsconfigs: { forDirectory: () => ({ paths }) } });
  assert.equal(shown(decide("a", "import", scope)), "src/a.ts");
  assert.equal(shown(decide("x:a", "import", scope)), "src/a.ts");
  assert.equal(shown(decide("data:text/javascript,1", "import", scope)), "node (none)");
  assert.equal(shown(decide("https:a", "import", scope)), "node (none)");
});

test("conditions: Node's, without node-addons under --no-addons, then --conditions", () => {
  const node = (scope: ResolveScope) => decide("exp", "import", scope) as Extract<Resolution, { kind: "node" }>;
  assert.deepEqual(node(scopeOf()).conditions, IMPORT);
  assert.deepEqual(node(scopeOf({ addons: false })).conditions, ["node", "import"]);
  assert.deepEqual(node(scopeOf({ addons: false, conditions: ["development"] })).conditions, ["node", "import", "development"]);
});

test("macro imports rt did not expand fail, refused under --no-macros", () => {
  assert.equal(shown(decide("./macro.ts", "import", scopeOf(), "/app/main.ts", true)), "ERR_MACRO_USE");
  assert.equal(shown(decide("./macro.ts", "import", scopeOf({ macros: { allowed: false } }), "/app/main.ts", true)), "ERR_MACRO_REFUSED");
  assert.equal(shown(decide("rt", "import", scopeOf(), "/app/main.ts", true)), "rt file:///rt/dist/api.cjs");
});

/** The auto-install strategy as AutoInstaller would give it, and which packages node_modules lacks. */
function installing(strategy: InstallStrategy, missing: readonly string[] = []): ResolveScope["installer"] {
  return { strategy: () => strategy, isMissing: (specifier) => missing.includes(specifier) };
}

test("auto-install: under 'cache' packages come from the cache (tsconfig paths still first); under 'fallback' Node goes first", () => {
  assert.equal(shown(decide("plain", "import", scopeOf({ installer: installing("cache") }))), "cache");
  assert.equal(shown(decide("@/a", "import", scopeOf({ installer: installing("cache") }))), "src/a.ts");
  assert.equal(shown(decide("not-installed", "import", scopeOf({ installer: installing("fallback") }))), "node (fallback)");
  // Only package specifiers ask the installer.
  assert.equal(shown(decide("node:fs", "import", scopeOf({ installer: installing("cache") }))), "node (none)");
});

/** A not-found error shaped as Node's resolver throws it. */
function notFound(code: string, fields: { url?: string; message?: string } = {}): Error {
  return Object.assign(new Error(fields.message ?? "Cannot find package 'x'"), { code, ...fields });
}

test("after Node fails: a missing compiled target is its TypeScript source; a package node_modules lacks comes from the cache", () => {
  const request = (specifier: string) => requestOf(specifier, "import");
  const node = (scope: ResolveScope, specifier: string) => resolveSpecifier(request(specifier), scope) as Extract<Resolution, { kind: "node" }>;
  const scope = scopeOf();
  const missing = notFound("ERR_MODULE_NOT_FOUND", { url: "file:///app/node_modules/exp/dist/feature.js" });
  assert.deepEqual(afterNodeFailed(missing, request("exp/feature"), node(scope, "exp/feature"), scope), {
    kind: "url",
    url: "file:///app/node_modules/exp/dist/feature.ts",
  });
  const byRequire = notFound("MODULE_NOT_FOUND", { message: "Cannot find module '/app/node_modules/exp/dist/feature.js'" });
  assert.equal(afterNodeFailed(byRequire, request("exp/feature"), node(scope, "exp/feature"), scope)?.kind, "url");
  assert.equal(afterNodeFailed(notFound("ERR_MODULE_NOT_FOUND"), request("not-installed"), node(scope, "not-installed"), scope), undefined);
  const fallback = scopeOf({ installer: installing("fallback", ["not-installed"]) });
  assert.deepEqual(afterNodeFailed(notFound("ERR_MODULE_NOT_FOUND"), request("not-installed"), node(fallback, "not-installed"), fallback), {
    kind: "cache",
    conditions: IMPORT,
  });
  const notExported = notFound("ERR_PACKAGE_PATH_NOT_EXPORTED");
  assert.equal(afterNodeFailed(notExported, request("exp/other"), node(fallback, "exp/other"), fallback), undefined);
});

test("what a failure reports: rt's 'Cannot find module' with Node's hint, Node's other errors under their code", () => {
  const hinted = resolutionError(
    notFound("ERR_MODULE_NOT_FOUND", { message: "Cannot find module\nDid you mean to import './x.js'?" }),
    requestOf("./x", "import"),
  );
  assert.deepEqual(
    [(hinted as Error).message, (hinted as { code: string }).code],
    ["Cannot find module './x' from '/app/main.ts'\nDid you mean to import './x.js'?", "ERR_MODULE_NOT_FOUND"],
  );
  assert.equal((resolutionError(notFound("MODULE_NOT_FOUND"), requestOf("x", "require")) as { code: string }).code, "MODULE_NOT_FOUND");
  const other = resolutionError(
    notFound("ERR_PACKAGE_PATH_NOT_EXPORTED", { message: "Package subpath './other' is not defined" }),
    requestOf("exp/other", "import"),
  );
  assert.deepEqual([(other as Error).message, (other as { code: string }).code], ["Package subpath './other' is not defined", "ERR_PACKAGE_PATH_NOT_EXPORTED"]);
  // A package that is there without the entry its main/exports names: Node's error, as Node words it.
  for (const [how, code, message] of [
    ["import", "ERR_MODULE_NOT_FOUND", "Cannot find package '/app/node_modules/gone/dist/index.js' imported from /app/main.ts"],
    [
      "require",
      "MODULE_NOT_FOUND",
      "Cannot find module '/app/node_modules/gone/dist/index.js'. Please verify that the package.json has a valid \"main\" entry",
    ],
  ] as const) {
    const missingMain = resolutionError(notFound(code, { message }), requestOf("gone", how));
    assert.deepEqual([(missingMain as Error).message, (missingMain as { code: string }).code], [message, code]);
  }
  // A subpath that is not there is the importer's mistake: rt's message, with Node's hint.
  const subpath = resolutionError(
    notFound("ERR_MODULE_NOT_FOUND", {
      message: "Cannot find module '/app/node_modules/plain/nope' imported from /app/main.ts\nDid you mean to import \"plain/nope.js\"?",
    }),
    requestOf("plain/nope", "import"),
  );
  assert.equal((subpath as Error).message, "Cannot find module 'plain/nope' from '/app/main.ts'\nDid you mean to import \"plain/nope.js\"?");
});
