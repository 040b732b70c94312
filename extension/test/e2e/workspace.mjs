// The multi-root workspace the extension is tested in: the app fixture (scripts with pre/post
// hooks, TypeScript files to run and debug), the service fixture (a package whose "main" is its
// entry, a library module, a `dev` script that runs rt --watch), a generated 50-package monorepo, a folder
// without package.json, a project with its own rt in node_modules (this repository's runtime
// package, linked as npm links a dependency), and a project whose own rt is broken.
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/vscode/", import.meta.url));
const RUNTIME = fileURLToPath(new URL("../../../runtime/", import.meta.url));
export const MONOREPO_PACKAGES = 50;
/** A script that records the launcher of the rt that runs it (npm_execpath) in which-rt.txt. */
const WHICH = `node -e "require('fs').writeFileSync('which-rt.txt', process.env.npm_execpath)"`;

/** Lays the workspace out in `dir`; returns the .code-workspace file's path. */
export function makeWorkspace(dir) {
  cpSync(path.join(FIXTURES, "app"), path.join(dir, "app"), { recursive: true });
  cpSync(path.join(FIXTURES, "empty"), path.join(dir, "empty"), { recursive: true });
  cpSync(path.join(FIXTURES, "service"), path.join(dir, "service"), { recursive: true });
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
  const project = path.join(dir, "project");
  mkdirSync(path.join(project, "node_modules", ".bin"), { recursive: true });
  symlinkSync(RUNTIME, path.join(project, "node_modules", "rt-runtime"));
  symlinkSync(path.join("..", "rt-runtime", "bin", "rt"), path.join(project, "node_modules", ".bin", "rt"));
  // `which` records the launcher of the rt that runs it (npm_execpath); `nested` runs it through the `rt` on the script's PATH.
  json(path.join(project, "package.json"), { name: "project", private: true, scripts: { which: WHICH, nested: "rt run which" } });
  // A project whose own rt cannot run (a broken install): its tasks run on the bundled rt.
  const brokenRt = path.join(dir, "broken-rt");
  mkdirSync(path.join(brokenRt, "node_modules", "rt-runtime", "bin"), { recursive: true });
  json(path.join(brokenRt, "node_modules", "rt-runtime", "package.json"), { name: "rt-runtime", version: "0.1.0" });
  writeFileSync(
    path.join(brokenRt, "node_modules", "rt-runtime", "bin", "rt.cjs"),
    'console.error("rt-runtime: this install is broken (a test fixture)");\nprocess.exit(3);\n',
  );
  json(path.join(brokenRt, "package.json"), { name: "broken-rt", private: true, scripts: { which: WHICH } });
  const workspace = path.join(dir, "rt.code-workspace");
  json(workspace, {
    folders: [{ path: "app" }, { path: "mono" }, { path: "empty" }, { path: "project" }, { path: "service" }, { path: "broken-rt" }],
    settings: {},
  });
  return workspace;
}
