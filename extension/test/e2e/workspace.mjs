// The multi-root workspace the extension is tested in: the app fixture (scripts with pre/post
// hooks, TypeScript files to run and debug), a generated 50-package monorepo, and a folder
// without package.json.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/vscode/", import.meta.url));
export const MONOREPO_PACKAGES = 50;

/** Lays the workspace out in `dir`; returns the .code-workspace file's path. */
export function makeWorkspace(dir) {
  cpSync(path.join(FIXTURES, "app"), path.join(dir, "app"), { recursive: true });
  cpSync(path.join(FIXTURES, "empty"), path.join(dir, "empty"), { recursive: true });
  const mono = path.join(dir, "mono");
  const json = (file, value) => writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
  mkdirSync(mono, { recursive: true });
  json(path.join(mono, "package.json"), { name: "mono", private: true, workspaces: ["packages/*"], scripts: { lint: "echo lint" } });
  for (let i = 1; i <= MONOREPO_PACKAGES; i++) {
    const name = `pkg-${String(i).padStart(2, "0")}`;
    mkdirSync(path.join(mono, "packages", name), { recursive: true });
    json(path.join(mono, "packages", name, "package.json"), {
      name,
      version: "1.0.0",
      scripts: { build: `echo built ${name} > build.out`, test: `echo testing ${name}` },
    });
  }
  const workspace = path.join(dir, "rt.code-workspace");
  json(workspace, { folders: [{ path: "app" }, { path: "mono" }, { path: "empty" }], settings: {} });
  return workspace;
}
