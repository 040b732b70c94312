// `npm run package`: lays out the extension as it ships, one folder per platform in
// extension/.vsix/<target>/, and packs each with @vscode/vsce into
// extension/rt-vscode-<version>-<target>.vsix (`--target <target>`, repeated: only those). Beside
// the bundled extension (dist/*.cjs) it holds the runtime (runtime/: rt's package with bin/, dist/,
// schema/, types/ and the packages its bundles load by name: pure-JavaScript ones bundled into
// one file each, native ones with the target's binary only: esbuild's and the keyring addon,
// fetched with `npm pack` for other platforms) with the target's compiled front
// (runtime/dist/rt, rt.exe on Windows) and the language server (server/dist/*.cjs). The tests
// install and run exactly these folders.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { buildPlatforms, findGo, frontName, PLATFORMS } from "../../runtime/native/build.mjs";
import { LAYOUT } from "../src/contributions.ts";
import { stagedFolder, VSIX_TARGETS, vsixPath } from "./vsix.mjs";

const extension = fileURLToPath(new URL("..", import.meta.url));
const repo = path.dirname(extension);
const manifest = JSON.parse(readFileSync(path.join(extension, "package.json"), "utf8"));
const { values: options } = parseArgs({ options: { target: { type: "string", multiple: true } } });
const targets = options.target ?? VSIX_TARGETS;
for (const target of targets) if (!VSIX_TARGETS.includes(target)) fail(`unknown --target ${target}: one of ${VSIX_TARGETS.join(", ")}`);
// Everything but the native binaries and the front, copied into each target's folder.
const staging = path.join(extension, ".vsix", "common");
// Packages of other platforms' binaries, as `npm pack` fetched them (kept between runs).
const natives = path.join(repo, "node_modules", ".cache", "rt-vsix-natives");

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

rmSync(path.join(extension, ".vsix"), { recursive: true, force: true });
mkdirSync(staging, { recursive: true });

// The manifest without what only the repository's build needs.
const { devDependencies: _dev, dependencies: _deps, scripts: _scripts, ...shipped } = manifest;
writeFileSync(path.join(staging, ".vscodeignore"), "# extension/.vsix holds only what ships (scripts/package.mjs)\n**/*.map\n");
writeFileSync(path.join(staging, "package.json"), JSON.stringify(shipped, null, 2) + "\n");
cpSync(path.join(extension, "CHANGELOG.md"), path.join(staging, "CHANGELOG.md"));
// rtfig.toml's language: its TextMate grammar and language configuration (contributes.languages, .grammars).
cpSync(path.join(extension, "syntaxes"), path.join(staging, "syntaxes"), { recursive: true });
// media/ sits at the repository's root (the layout the project was asked for): the README links
// it as ../media/ so the images show when browsing the repository, and as media/ in the package.
writeFileSync(path.join(staging, "README.md"), readFileSync(path.join(extension, "README.md"), "utf8").replaceAll("](../media/", "](media/"));
cpSync(path.join(repo, "media"), path.join(staging, "media"), {
  recursive: true,
  filter: (source) => !source.includes(`${path.sep}screenshots`) || !source.endsWith(".md"),
});
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

const readManifest = (folder) => JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8"));

/**
 * A native package (its `main` finds a binary installed as a platform-specific optional
 * dependency: esbuild, @napi-rs/keyring) ships as its manifest and `main`, with the binary
 * package of the target platform only (shipBinaries): that is what `vsce package --target` exists for.
 */
const nativePackages = [];
function shipNative(source, target) {
  const manifest = readManifest(source);
  for (const file of ["package.json", manifest.main ?? "index.js"]) cpSync(path.join(source, file), path.join(target, file));
  nativePackages.push({ source, manifest });
}

/**
 * The binary package of each native package for `target` (`linux-x64`: @esbuild/linux-x64,
 * @napi-rs/keyring-linux-x64-gnu; glibc, and MSVC on Windows, as VS Code's own builds), from
 * node_modules when it is this platform's, else fetched with `npm pack` at the exact version.
 */
function shipBinaries(target, dependencies) {
  const pattern = new RegExp(`[/-]${target}(-gnu|-msvc)?$`);
  for (const { source, manifest } of nativePackages) {
    const matching = Object.entries(manifest.optionalDependencies).filter(([name]) => pattern.test(name));
    if (matching.length !== 1) fail(`${manifest.name} has ${matching.length} binary packages for ${target}: ${matching.map(([name]) => name).join(", ")}`);
    const [[name, version]] = matching;
    const found = findPackage(name, source) ?? fetchPackage(name, version);
    cpSync(found, path.join(dependencies, name), { recursive: true, dereference: true, filter: (file) => !/\.md$/i.test(file) });
  }
}

/** `name@version` unpacked under the cache, fetched from the registry the first time. */
function fetchPackage(name, version) {
  const folder = path.join(natives, `${name.replace("/", "+")}@${version}`);
  if (existsSync(path.join(folder, "package.json"))) return folder;
  const download = path.join(natives, "download");
  rmSync(download, { recursive: true, force: true });
  mkdirSync(download, { recursive: true });
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const packed = spawnSync(npm, ["pack", `${name}@${version}`, "--pack-destination", download, "--silent"], {
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  const tarball = packed.status === 0 ? path.join(download, packed.stdout.trim().split("\n").at(-1)) : undefined;
  if (!tarball || !existsSync(tarball)) fail(`npm pack ${name}@${version} failed (is the registry reachable?):\n${packed.stderr}`);
  const unpacked = spawnSync("tar", ["-xzf", tarball, "-C", download], { encoding: "utf8" });
  if (unpacked.status !== 0) fail(`tar could not unpack ${tarball}:\n${unpacked.stderr}`);
  renameSync(path.join(download, "package"), folder);
  rmSync(download, { recursive: true, force: true });
  return folder;
}

/**
 * A pure-JavaScript package ships as one bundled file: pacote alone is ~2,000 files of
 * dependencies. The runtime requires it by name, so it keeps its folder in node_modules with a
 * manifest whose `main` is the bundle. Requires that cannot resolve are optional ones the package
 * wraps in try/catch (ws's bufferutil): they stay requires.
 */
async function shipBundled(name, source, target) {
  const { version } = readManifest(source);
  const optionalRequires = {
    name: "optional-requires",
    setup(esbuild) {
      esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("node:") || isBuiltin(args.path)) return { path: args.path, external: true };
        try {
          createRequire(args.importer).resolve(args.path);
          return undefined;
        } catch {
          return { path: args.path, external: true };
        }
      });
    },
  };
  await build({
    entryPoints: [createRequire(path.join(repo, "runtime", "package.json")).resolve(name)],
    outfile: path.join(target, "index.cjs"),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [optionalRequires],
    // An ES module exporting `"module.exports"` (js-tokens) is that value to require(), as Node
    // gives it: esbuild's CommonJS output would hand back the namespace object instead.
    footer: { js: 'if(Object.prototype.hasOwnProperty.call(module.exports,"module.exports"))module.exports=module.exports["module.exports"];' },
    logLevel: "error",
  });
  writeFileSync(path.join(target, "package.json"), JSON.stringify({ name, version, main: "index.cjs" }, null, 2) + "\n");
}

// The runtime: its own files, then the packages its bundles load at run time (a dependency
// no bundle requires by name is already inside the bundles).
const runtimeSource = path.join(repo, "runtime");
const runtimeTarget = path.join(staging, LAYOUT.runtime);
const hostFront = path.join(runtimeSource, LAYOUT.runtimeFront.slice(LAYOUT.runtime.length + 1));
cpSync(runtimeSource, runtimeTarget, {
  recursive: true,
  filter: (file) => {
    const [top] = path.relative(runtimeSource, file).split(path.sep);
    // The front is the target's (below). Of bin/, the launcher only: the rest serves npm installs.
    if (file === hostFront || (top === "bin" && ![path.join(runtimeSource, "bin"), path.join(runtimeSource, "bin", "rt.cjs")].includes(file))) return false;
    return top === "" || (["package.json", "bin", "dist", "schema", "types"].includes(top) && !file.endsWith(".map"));
  },
});
const bundles = readdirSync(path.join(runtimeSource, "dist"))
  .filter((file) => file.endsWith(".cjs"))
  .map((file) => readFileSync(path.join(runtimeSource, "dist", file), "utf8"));
const loadedByName = (name) => bundles.some((code) => code.includes(`require("${name}")`) || code.includes(`import("${name}")`));
const runtimeDependencies = path.join(runtimeTarget, "node_modules");
for (const name of Object.keys(readManifest(runtimeSource).dependencies ?? {}).filter(loadedByName)) {
  const source = findPackage(name, runtimeSource);
  if (!source) throw new Error(`package: rt needs ${name}, which is not installed (run npm ci)`);
  const target = path.join(runtimeDependencies, name);
  if (readManifest(source).optionalDependencies) shipNative(source, target);
  else await shipBundled(name, source, target);
}
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

// The compiled front of every target (runtime/platforms/), when Go is installed; without Go the
// packages start rt on Node, as the extension does wherever the front is missing.
const fronts = findGo() ? buildPlatforms() : undefined;
if (!fronts) console.warn("package: Go is not installed: the packages hold no compiled front (rt starts on Node)");

const vsce = path.join(path.dirname(fileURLToPath(import.meta.resolve("@vscode/vsce/package.json"))), "vsce");
for (const target of targets) {
  const folder = stagedFolder(target);
  cpSync(staging, folder, { recursive: true });
  shipBinaries(target, path.join(folder, LAYOUT.runtime, "node_modules"));
  if (fronts) {
    const front = path.join(PLATFORMS, target, "bin", frontName(target));
    cpSync(front, path.join(folder, LAYOUT.runtime, "dist", frontName(target)));
  }
  // A platform-specific package: the native binaries in it are the target's.
  const vsix = vsixPath(target);
  const result = spawnSync(
    process.execPath,
    [vsce, "package", "--target", target, "--no-dependencies", "--allow-missing-repository", "--skip-license", "--no-rewrite-relative-links", "--out", vsix],
    { cwd: folder, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
  console.log(`${path.relative(process.cwd(), vsix)}: ${(statSync(vsix).size / 1024 / 1024).toFixed(1)} MiB`);
}
rmSync(staging, { recursive: true, force: true });
