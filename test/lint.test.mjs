// Biome lints and checks the format of every source file, and its import rules hold the
// dependency direction of docs/architecture.md: an import that points the wrong way fails.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const biome = path.join(path.dirname(createRequire(import.meta.url).resolve("@biomejs/biome/package.json")), "bin", "biome");
const run = (...args) => spawnSync(biome, args, { cwd: repo, encoding: "utf8" });

/** Lints probe files written at their paths (inside the repository, so the folder's rules apply), then removes them. */
function lintProbes(files) {
  const probes = Object.keys(files).map((file) => path.join(repo, file));
  try {
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
      writeFileSync(path.join(repo, file), source);
    }
    return run("lint", "--colors=off", ...Object.keys(files));
  } finally {
    for (const probe of probes) rmSync(probe, { force: true });
  }
}

const lintProbe = (file, source) => lintProbes({ [file]: source });

for (const [file, source] of [
  ["runtime/test/lint-probe.mjs", 'import * as vscode from "vscode";\nexport const probe = vscode;\n'],
  ["runtime/src/lint-probe.ts", 'import { RtDebugSession } from "rt-debug-adapter";\nexport const probe = RtDebugSession;\n'],
  ["server/src/lint-probe.ts", 'import * as vscode from "vscode";\nexport const probe = vscode;\n'],
  ["debug-adapter/src/lint-probe.ts", 'import { createConnection } from "vscode-languageserver/node";\nexport const probe = createConnection;\n'],
  ["runtime/src/lint-probe-cli.ts", 'import { main } from "./cli/main.js";\nexport const probe = main;\n'],
  ["runtime/src/config/lint-probe.ts", 'import type { Invocation } from "../cli/commands/run-file.js";\nexport type Probe = Invocation;\n'],
]) {
  test(`an import against the dependency direction fails the lint: ${file}`, () => {
    const result = lintProbe(file, source);
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stdout + result.stderr, /noRestrictedImports[\s\S]*docs\/architecture\.md/);
  });
}

test("the extension may import vscode and the packages it builds on", () => {
  const result = lintProbe(
    "extension/src/lint-probe.ts",
    'import * as vscode from "vscode";\nimport { RtDebugSession } from "rt-debug-adapter";\nexport const probe = [vscode, RtDebugSession];\n',
  );
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test("below the CLI, an import of cli/ names the flags floor; cli/ itself stands on flags/", () => {
  const below = lintProbe("runtime/src/transpile/lint-probe.ts", 'import { FLAGS } from "../cli/flags.js";\nexport const probe = FLAGS;\n');
  assert.equal(below.status, 1, below.stdout + below.stderr);
  assert.match(below.stdout + below.stderr, /noRestrictedImports[\s\S]*nothing under runtime\/src imports cli\/[\s\S]*in flags\//);
  const cli = lintProbe(
    "runtime/src/cli/commands/lint-probe.ts",
    'import { FLAGS } from "../../flags/table.js";\nimport { helpText } from "../help.js";\nexport const probe = [FLAGS, helpText];\n',
  );
  assert.equal(cli.status, 0, cli.stdout + cli.stderr);
});

// Every package, tests and benchmarks included; a cycle of type-only imports counts too.
for (const [folder, ext, importType] of [
  ["runtime/src", "ts", "import"],
  ["runtime/src/loader", "ts", "import type"],
  ["server/src", "ts", "import"],
  ["debug-adapter/src", "ts", "import"],
  ["extension/src", "ts", "import type"],
  ["test", "mjs", "import"],
  ["bench", "mjs", "import"],
]) {
  test(`an import cycle fails the lint: ${folder} (${importType})`, () => {
    const use = importType === "import type" ? (other) => `export type Uses = typeof ${other};` : (other) => `export const uses = () => ${other};`;
    const probe = (self, other) =>
      `${importType} { ${other} } from "./lint-probe-${other}.${ext === "ts" ? "js" : ext}";\nexport const ${self} = 1;\n${use(other)}\n`;
    const files = { [`${folder}/lint-probe-a.${ext}`]: probe("a", "b"), [`${folder}/lint-probe-b.${ext}`]: probe("b", "a") };
    const result = lintProbes(files);
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stdout + result.stderr, /lint\/suspicious\/noImportCycles[\s\S]*This import is part of a cycle/);
  });
}
