// What `npm publish` would put in the rt-runtime tarball: `npm pack --dry-run --json` on the
// built package lists its files. Only what runs (the launcher, the bundles, the web debugger,
// the declarations the exports name, the config schema) and nothing else: no sources, tests,
// source maps or the compiled front (that one comes in rt-runtime-<os>-<cpu> packages).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { REPO } from "./rt.mjs";

const RUNTIME = path.join(REPO, "runtime");
// Measured 2026-11-27: 357 kB packed, 1.42 MB unpacked, 142 files. The budget leaves ~25% for
// growth; going past it means something came in that should not ship, or a decision to make.
const BUDGET = { packed: 450_000, unpacked: 1_800_000 };
const ALLOWED = [
  /^package\.json$/,
  /^bin\/rt\.cjs$/,
  /^bin\/rt$/, // what npm links as `rt`: starts rt.cjs, or is replaced by the platform's front (link-front.cjs)
  /^bin\/link-front\.cjs$/,
  /^bin\/package\.json$/, // makes the extensionless bin/rt CommonJS
  /^dist\/[a-z-]+\.cjs$/, // not dist/schema.cjs: it only generates schema/ for a test
  /^dist\/inspector-ui\/(app\.js|index\.html|style\.css)$/,
  /^dist\/inspector-protocol\.json$/,
  /^dist\/types\/([a-z-]+\/)*[a-z-]+\.d\.ts$/,
  /^schema\/rtfig\.schema\.json$/,
  /^types\/(index|rt)\.d\.ts$/,
];

const packed = (() => {
  const result = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: RUNTIME, encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout)[0];
})();
const files = new Set(packed.files.map((file) => file.path));

test("the tarball holds only what runs: no sources, tests, source maps, build scripts or the compiled front", () => {
  const unexpected = [...files].filter((file) => !ALLOWED.some((pattern) => pattern.test(file)) || file === "dist/schema.cjs");
  assert.deepEqual(unexpected, []);
});

test(`the tarball stays within its budget (${BUDGET.packed} bytes packed, ${BUDGET.unpacked} unpacked)`, () => {
  assert.ok(packed.size <= BUDGET.packed, `packed ${packed.size} bytes`);
  assert.ok(packed.unpackedSize <= BUDGET.unpacked, `unpacked ${packed.unpackedSize} bytes`);
});

test("every file the package names (bin, exports, their declarations) is in the tarball, and every bundle the launcher and CLI load", () => {
  const manifest = JSON.parse(readFileSync(path.join(RUNTIME, "package.json"), "utf8"));
  assert.equal(manifest.name, "rt-runtime");
  assert.equal(manifest.private, undefined);
  const named = [
    ...Object.values(manifest.bin),
    manifest.types,
    ...Object.values(manifest.exports).flatMap((target) => (typeof target === "string" ? [target] : Object.values(target))),
  ];
  const missing = named.map((file) => path.posix.normalize(file)).filter((file) => !files.has(file));
  assert.deepEqual(missing, []);
  for (const bundle of [
    "cli",
    "own-node",
    "register",
    "inspector-thread",
    "inspector-worker",
    "rt-shell",
    "macro-runner",
    "node-shim",
    "installer",
    "secrets-store-thread",
  ]) {
    assert.ok(files.has(`dist/${bundle}.cjs`), `dist/${bundle}.cjs`);
  }
});

test("the packed declarations are whole: every relative import of a .d.ts names a packed file", () => {
  const broken = [];
  for (const file of [...files].filter((name) => name.endsWith(".d.ts"))) {
    const text = readFileSync(path.join(RUNTIME, file), "utf8");
    for (const [, specifier] of text.matchAll(/from "(\.{1,2}\/[^"]+)"/g)) {
      const target = path.posix.join(path.posix.dirname(file), specifier.replace(/\.js$/, ".d.ts"));
      if (!files.has(target)) broken.push(`${file}: ${specifier}`);
    }
  }
  assert.deepEqual(broken, []);
});
