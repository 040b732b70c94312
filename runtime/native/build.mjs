// Builds rt's compiled front (dist/rt) when Go is installed, and points the `rt` that npm linked
// (node_modules/.bin/rt) at it; without Go it skips quietly and that link stays on bin/rt,
// so rt works exactly as without the front. The front's shared rules come from src/run/rules.ts
// and the built-in commands from the flag table (written to shared_rules.go here: one definition
// for both). Called by build.mjs after the bundles are built.
//
// buildPlatforms cross-compiles the front into every platform package (platforms/<os>-<cpu>/,
// published as rt-runtime-<os>-<cpu>): `npm run build:platforms -w runtime`.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { OWN_NODE_MAJOR } from "../src/launcher/node-version.ts";
import { GUARDIAN_PROGRAM, LABEL_COLORS, NO_SHELL_MESSAGE, POSIX_SHELLS, RUNNABLE_EXTENSIONS, SAFE_WORD, SHELL_NAMES } from "../src/run/rules.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RUNTIME = path.dirname(HERE);
export const FRONT = path.join(RUNTIME, "dist", "rt");
/** The platform packages' folders, one per <os>-<cpu> (npm's process.platform and process.arch names). */
export const PLATFORMS = path.join(RUNTIME, "platforms");
const LAUNCHER = path.join(RUNTIME, "bin", "rt.cjs");
/** What npm links as `rt`: a JavaScript file that starts the launcher, replaced by the front on install (bin/link-front.cjs). */
const BIN = path.join(RUNTIME, "bin", "rt");
const GOOS = { linux: "linux", darwin: "darwin", win32: "windows" };
const GOARCH = { x64: "amd64", arm64: "arm64" };

/** Builds the front if it is out of date; returns its path, or undefined without Go (or on a system it does not run scripts on). */
export function buildNativeFront(version) {
  const go = process.platform === "linux" || process.platform === "darwin" ? findGo() : undefined;
  if (!go) {
    linkBin(BIN);
    return undefined;
  }
  writeIfChanged(path.join(HERE, "shared_rules.go"), sharedRules(version));
  if (!upToDate(FRONT)) compile(go, FRONT, {});
  linkBin(FRONT);
  return FRONT;
}

/** The front's file name in a platform package: the Windows loader needs .exe. */
export function frontName(platform) {
  return platform.startsWith("win32-") ? "rt.exe" : "rt";
}

/** The platform packages: folder name (`linux-x64`), folder and manifest. */
export function platformPackages() {
  return readdirSync(PLATFORMS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => {
      const dir = path.join(PLATFORMS, name);
      return { name, dir, manifest: JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) };
    });
}

/** Cross-compiles the front into every platform package (bin/rt or bin/rt.exe); returns the files. */
export function buildPlatforms() {
  const go = findGo();
  if (!go) throw new Error("build:platforms needs Go on PATH (Debian: apt-get install golang-go; or https://go.dev/dl/)");
  if (!existsSync(path.join(RUNTIME, "dist", "flags.cjs"))) throw new Error("build:platforms needs the bundles: run npm run build first");
  const { version } = JSON.parse(readFileSync(path.join(RUNTIME, "package.json"), "utf8"));
  writeIfChanged(path.join(HERE, "shared_rules.go"), sharedRules(version));
  return platformPackages().map(({ name, dir, manifest }) => {
    const [os, cpu] = [manifest.os[0], manifest.cpu[0]];
    if (!GOOS[os] || !GOARCH[cpu] || name !== `${os}-${cpu}`)
      throw new Error(`${dir}/package.json: os ${os} and cpu ${cpu} do not match the folder or are not ones Go builds`);
    const output = path.join(dir, "bin", frontName(name));
    if (!upToDate(output)) compile(go, output, { GOOS: GOOS[os], GOARCH: GOARCH[cpu] });
    return output;
  });
}

function compile(go, output, target) {
  mkdirSync(path.dirname(output), { recursive: true });
  const result = spawnSync(go, ["build", "-trimpath", "-ldflags=-s -w", "-o", output, "."], {
    cwd: HERE,
    encoding: "utf8",
    env: goEnvironment(target),
  });
  if (result.status !== 0) throw new Error(`go build of the native front (${target.GOOS ?? "this system"}/${target.GOARCH ?? ""}) failed:\n${result.stderr}`);
}

/** The binary is newer than every source file (go build would find nothing to do, in ~1.5 s). */
function upToDate(output) {
  const built = statSync(output, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return false;
  return readdirSync(HERE).every((name) => !/\.(go|mod)$/.test(name) || statSync(path.join(HERE, name)).mtimeMs < built);
}

/**
 * The environment of a go command building for target ({GOOS, GOARCH}; empty: this system). No
 * network, no toolchain switch: the standard library only. Go keeps its build cache under
 * $XDG_CACHE_HOME or $HOME; a CI user with neither gets one in the temporary directory.
 */
export function goEnvironment(target = {}) {
  return { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local", ...goHomes(), ...target };
}

function goHomes() {
  if (process.env.GOCACHE || process.env.XDG_CACHE_HOME || process.env.HOME) return {};
  const home = path.join(tmpdir(), "rt-go");
  return { GOCACHE: path.join(home, "cache"), GOPATH: path.join(home, "path") };
}

export function findGo() {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const file = dir && path.join(dir, process.platform === "win32" ? "go.exe" : "go");
    if (file && statSync(file, { throwIfNoEntry: false })?.isFile()) return file;
  }
  return undefined;
}

/**
 * node_modules/.bin/rt (npm links it to bin/rt) becomes a link to `target`. Only a link that
 * leads into this package is replaced: an rt installed some other way is left alone.
 */
function linkBin(target) {
  const bin = path.join(RUNTIME, "..", "node_modules", ".bin", "rt");
  const current = lstatSync(bin, { throwIfNoEntry: false });
  if (!current?.isSymbolicLink()) return;
  const resolved = existsSync(bin) ? realpathSync(bin) : path.resolve(path.dirname(bin), readlinkSync(bin));
  if (resolved !== realpathSync(BIN) && resolved !== realpathSync(LAUNCHER) && resolved !== FRONT) return;
  const relative = path.relative(path.dirname(bin), target);
  if (readlinkSync(bin) === relative) return;
  const temporary = `${bin}.${process.pid}.tmp`;
  symlinkSync(relative, temporary);
  renameSync(temporary, bin);
}

function sharedRules(version) {
  // The flag table from its bundle (built just before), as the language server takes it (`rt-runtime/flags`).
  const { COMMANDS } = createRequire(import.meta.url)("../dist/flags.cjs");
  const list = (values) => `[]string{${values.map((value) => JSON.stringify(value)).join(", ")}}`;
  return `// Code generated by native/build.mjs from src/run/rules.ts, src/flags/table.ts and src/launcher/node-version.ts. DO NOT EDIT.

package main

const rtVersion = ${JSON.stringify(version)}

var cliCommands = ${list(Object.keys(COMMANDS))}

var runnableExtensions = ${list(RUNNABLE_EXTENSIONS)}

var posixShells = ${list(POSIX_SHELLS)}

var shellNames = map[string]bool{${SHELL_NAMES.map((name) => `${JSON.stringify(name)}: true`).join(", ")}}

const safeWordPattern = ${JSON.stringify(SAFE_WORD.source)}

const noShellMessage = ${JSON.stringify(NO_SHELL_MESSAGE)}

var labelColors = ${list(LABEL_COLORS)}

const guardianProgram = ${JSON.stringify(GUARDIAN_PROGRAM)}

const ownNodeMajor = ${OWN_NODE_MAJOR}
`;
}

function writeIfChanged(file, text) {
  if (existsSync(file) && readFileSync(file, "utf8") === text) return;
  writeFileSync(file, text);
}
