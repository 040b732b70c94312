// `npm run package`: lays out the extension as it ships in extension/.vsix/ and packs it with
// @vscode/vsce into extension/rt-vscode-<version>.vsix. Beside the bundled extension
// (dist/*.cjs) it holds the runtime (runtime/: rt's package with bin/, dist/, schema/, types/
// and its dependencies, native ones included: esbuild's binary and the keyring addon of this
// platform) and the language server (server/dist/*.cjs). The tests install and run exactly this folder.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LAYOUT } from "../src/contributions.ts";

const extension = fileURLToPath(new URL("..", import.meta.url));
const repo = path.dirname(extension);
const staging = path.join(extension, ".vsix");
const manifest = JSON.parse(readFileSync(path.join(extension, "package.json"), "utf8"));
const vsix = path.join(extension, `${manifest.name}-${manifest.version}.vsix`);

rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });

// The manifest without what only the repository's build needs.
const { devDependencies: _dev, dependencies: _deps, scripts: _scripts, ...shipped } = manifest;
writeFileSync(path.join(staging, ".vscodeignore"), "# extension/.vsix holds only what ships (scripts/package.mjs)\n**/*.map\n");
writeFileSync(path.join(staging, "package.json"), JSON.stringify(shipped, null, 2) + "\n");
for (const file of ["README.md", "CHANGELOG.md"]) cpSync(path.join(extension, file), path.join(staging, file));
cpSync(path.join(repo, "media"), path.join(staging, "media"), { recursive: true, filter: (source) => !source.includes(`${path.sep}screenshots`) || !source.endsWith(".md") });
mkdirSync(path.join(staging, "dist"));
for (const file of readdirSync(path.join(extension, "dist"))) {
  if (file.endsWith(".cjs")) cpSync(path.join(extension, "dist", file), path.join(staging, "dist", file));
}

/** The folder of package `name` as Node would find it from `from` (node_modules of `from` and its ancestors). */
function findPackage(name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return realpathSync(candidate);
    if (dir === path.dirname(dir)) return undefined;
  }
}

/**
 * Copies a package's files (`only`: just these top-level entries) to `target`, then its
 * dependencies: into `root`'s node_modules once per package (flat, as npm hoists), nested under
 * the dependent when another version is already there. Optional dependencies that are not
 * installed (other platforms' binaries) are skipped.
 */
function ship(source, target, root, only, copied = new Map()) {
  const filter = (file) => {
    const relative = path.relative(source, file);
    if (relative === "") return true;
    const [top] = relative.split(path.sep);
    return top !== "node_modules" && !file.endsWith(".map") && (!only || only.includes(top));
  };
  cpSync(source, target, { recursive: true, filter, dereference: true });
  const pkg = JSON.parse(readFileSync(path.join(source, "package.json"), "utf8"));
  const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})];
  for (const name of names) {
    const found = findPackage(name, source);
    if (!found) {
      if (name in (pkg.optionalDependencies ?? {})) continue;
      throw new Error(`package: ${pkg.name} needs ${name}, which is not installed (run npm ci)`);
    }
    const flat = path.join(root, "node_modules", name);
    if (copied.get(flat) === found) continue;
    const destination = copied.has(flat) ? path.join(target, "node_modules", name) : flat;
    copied.set(destination, found);
    ship(found, destination, root, undefined, copied);
  }
}

ship(path.join(repo, "runtime"), path.join(staging, LAYOUT.runtime), path.join(staging, LAYOUT.runtime), ["package.json", "bin", "dist", "schema", "types"]);
// The language server is bundled (its dependencies are inside): its package.json and dist/*.cjs.
cpSync(path.join(repo, "server", "package.json"), path.join(staging, LAYOUT.server, "package.json"));
mkdirSync(path.join(staging, LAYOUT.server, "dist"));
for (const file of readdirSync(path.join(repo, "server", "dist"))) {
  if (file.endsWith(".cjs")) cpSync(path.join(repo, "server", "dist", file), path.join(staging, LAYOUT.server, "dist", file));
}
// dist/types holds declarations for the repository's own type checking.
rmSync(path.join(staging, LAYOUT.runtime, "dist", "types"), { recursive: true, force: true });

for (const required of [LAYOUT.runtimeBin, "runtime/dist/secrets.cjs", LAYOUT.serverMain, "dist/extension.cjs"]) {
  if (!existsSync(path.join(staging, required))) throw new Error(`package: ${required} is missing from the package: run npm run build first`);
}

const vsce = path.join(path.dirname(fileURLToPath(import.meta.resolve("@vscode/vsce/package.json"))), "vsce");
const result = spawnSync(process.execPath, [vsce, "package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "--no-rewrite-relative-links", "--out", vsix], { cwd: staging, stdio: ["ignore", "inherit", "inherit"] });
if (result.status !== 0) process.exit(result.status ?? 1);
console.log(`${path.relative(process.cwd(), vsix)}: ${(statSync(vsix).size / 1024 / 1024).toFixed(1)} MiB`);
