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

/** Lints one file written at `file` (inside the repository, so the folder's rules apply). */
function lintProbe(file, source) {
  const probe = path.join(repo, file);
  mkdirSync(path.dirname(probe), { recursive: true });
  writeFileSync(probe, source);
  try {
    return run("lint", "--colors=off", file);
  } finally {
    rmSync(probe, { force: true });
  }
}

for (const [file, source] of [
  ["runtime/test/lint-probe.mjs", 'import * as vscode from "vscode";\nexport const probe = vscode;\n'],
  ["runtime/src/lint-probe.ts", 'import { RtDebugSession } from "rt-debug-adapter";\nexport const probe = RtDebugSession;\n'],
  ["server/src/lint-probe.ts", 'import * as vscode from "vscode";\nexport const probe = vscode;\n'],
  ["debug-adapter/src/lint-probe.ts", 'import { createConnection } from "vscode-languageserver/node";\nexport const probe = createConnection;\n'],
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
