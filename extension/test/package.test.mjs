// The .vsix as it ships, checked without a VS Code: `npm run package` lays out extension/.vsix/<target>/
// and packs one per platform; each holds that platform's binaries, what the manifest names exists
// in it, the contributions come from their one source, and the bundled runtime runs a TypeScript
// file and loads rt.secrets by itself.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { binaryTarget } from "../../test/support/binary-format.mjs";
import { findGo } from "../../runtime/native/build.mjs";
import { stagedFolder, VSIX_TARGETS, vsixPath } from "../scripts/vsix.mjs";
import { EXTENSION } from "./e2e/code-server.mjs";
import { packageVsix } from "./e2e/host.mjs";

const vsix = packageVsix(VSIX_TARGETS);
const shipped = stagedFolder();
const manifest = JSON.parse(readFileSync(path.join(shipped, "package.json"), "utf8"));

test("the .vsix is a zip of the shipped folder, with the runtime's native binaries for this platform", () => {
  assert.equal(readFileSync(vsix).subarray(0, 4).toString("latin1"), "PK\u0003\u0004");
  for (const file of [
    "dist/extension.cjs",
    "dist/language-client.cjs",
    "dist/debug-adapter.cjs",
    "runtime/bin/rt.cjs",
    "runtime/dist/cli.cjs",
    "runtime/dist/secrets.cjs",
    "runtime/dist/secrets-store-thread.cjs",
    `runtime/node_modules/@esbuild/${process.platform}-${process.arch}/bin/esbuild`,
    "server/dist/server.cjs",
    "README.md",
  ]) {
    assert.ok(existsSync(path.join(shipped, file)), `${file} is in the package`);
  }
  const keyring = createRequire(path.join(shipped, "runtime", "dist", "secrets.cjs")).resolve("@napi-rs/keyring");
  assert.ok(keyring.startsWith(path.join(shipped, "runtime", "node_modules")), `the keyring module resolves inside the package: ${keyring}`);
  assert.ok(statSync(vsix).size < 40 * 1024 * 1024);
});

/** The files of a .vsix, as unzip lists them. */
function zipEntries(file) {
  const listed = spawnSync("unzip", ["-Z1", file], { encoding: "utf8" });
  assert.equal(listed.status, 0, listed.stderr);
  return listed.stdout.trim().split("\n");
}

test("one .vsix per platform, each with that platform's esbuild, keyring addon and compiled front, and no other binary", (t) => {
  assert.deepEqual([...VSIX_TARGETS].sort(), ["darwin-arm64", "darwin-x64", "linux-arm64", "linux-x64", "win32-x64"]);
  const withFront = findGo() !== undefined;
  if (!withFront && process.env.CI === "true") assert.fail("Go is not installed: the packages hold no compiled front");
  for (const target of VSIX_TARGETS) {
    const file = vsixPath(target);
    const entries = zipEntries(file);
    const exe = target.startsWith("win32-") ? ".exe" : "";
    const binaries = entries.filter((entry) => /\.node$|\/esbuild(\.exe)?$|^extension\/runtime\/dist\/rt(\.exe)?$/.test(entry)).sort();
    const keyring = target.startsWith("linux-") ? `${target}-gnu` : target.startsWith("win32-") ? `${target}-msvc` : target;
    assert.deepEqual(
      binaries,
      [
        `extension/runtime/node_modules/@esbuild/${target}/${exe ? "esbuild.exe" : "bin/esbuild"}`,
        `extension/runtime/node_modules/@napi-rs/keyring-${keyring}/keyring.${keyring}.node`,
        ...(withFront ? [`extension/runtime/dist/rt${exe}`] : []),
      ].sort(),
      `${path.basename(file)}: its binaries`,
    );
    for (const entry of binaries) {
      const bytes = spawnSync("unzip", ["-p", file, entry], { maxBuffer: 64 * 1024 * 1024 }).stdout;
      assert.equal(binaryTarget(bytes), target, `${path.basename(file)}: ${entry}`);
    }
    // Everything else is the same in every package: JavaScript, manifests, media.
    const common = entries.filter((entry) => !binaries.includes(entry) && !/node_modules\/@(esbuild|napi-rs\/keyring-)/.test(entry));
    assert.deepEqual(
      common.sort(),
      zipEntries(vsixPath())
        .filter((entry) => !/node_modules\/@(esbuild|napi-rs\/keyring-)|\/dist\/rt$|\.node$/.test(entry))
        .sort(),
      path.basename(file),
    );
    const manifestXml = spawnSync("unzip", ["-p", file, "extension.vsixmanifest"], { encoding: "utf8" }).stdout;
    assert.match(manifestXml, new RegExp(`TargetPlatform="${target}"`), path.basename(file));
  }
  if (!withFront) t.skip("Go is not installed: the packages hold no compiled front");
});

test("the package is bundled JavaScript plus this platform's binaries: few files, marked for this platform", () => {
  const files = readdirSync(shipped, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  assert.ok(files.length <= 150, `${files.length} files in the package`);
  const javascript = files.filter((entry) => /\.(c|m)?js$/.test(entry.name));
  assert.ok(javascript.length <= 60, `${javascript.length} JavaScript files in the package`);
  const listed = spawnSync("unzip", ["-p", vsix, "extension.vsixmanifest"], { encoding: "utf8" });
  assert.match(listed.stdout, new RegExp(`TargetPlatform="${process.platform}-${process.arch}"`));
});

test("the runtime's compiled front (runtime/dist/rt, built where Go is installed) ships and runs a script on its own", (t) => {
  const front = path.join(shipped, "runtime", "dist", "rt");
  if (!existsSync(path.join(EXTENSION, "..", "runtime", "dist", "rt"))) {
    if (process.env.CI === "true") assert.fail("runtime/dist/rt is not built (npm run build builds it when Go is installed)");
    return t.skip("runtime/dist/rt is not built: Go is not installed");
  }
  const dir = mkdtempSync(path.join(tmpdir(), "rt-vsix-front-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ scripts: { where: "printenv npm_execpath" } }));
  const result = spawnSync(front, ["where"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", XDG_CACHE_HOME: dir } });
  assert.deepEqual(
    { code: result.status, stdout: result.stdout, stderr: result.stderr },
    { code: 0, stdout: `${path.join(shipped, "runtime", "bin", "rt.cjs")}\n`, stderr: "$ printenv npm_execpath\n" },
  );
});

test("every file the manifest names is in the package (icons, walkthrough pages, README images, rtfig.toml's grammar)", () => {
  const named = [manifest.icon, ...manifest.contributes.viewsContainers.activitybar.map((container) => container.icon)];
  for (const walkthrough of manifest.contributes.walkthroughs) for (const step of walkthrough.steps) named.push(step.media.markdown);
  named.push(...manifest.contributes.grammars.map((grammar) => grammar.path), ...manifest.contributes.languages.map((language) => language.configuration));
  const readme = readFileSync(path.join(shipped, "README.md"), "utf8");
  named.push(...[...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((match) => match[1]));
  assert.ok(named.length >= 11);
  for (const file of named) assert.ok(existsSync(path.join(shipped, file)), `${file} is in the package`);
});

test("contributions come from their one source: command ids, settings, the adapter's launch/attach table", async () => {
  const { COMMANDS, SETTINGS } = await import("../src/contributions.ts");
  const { configurationAttributes } = createRequire(import.meta.url)("rt-debug-adapter/configuration");
  assert.deepEqual(
    manifest.contributes.commands.map((command) => command.command),
    Object.values(COMMANDS).map((command) => command.id),
  );
  assert.deepEqual(
    Object.keys(manifest.contributes.configuration.properties),
    Object.values(SETTINGS).map((setting) => setting.id),
  );
  const [debuggerContribution] = manifest.contributes.debuggers;
  assert.equal(debuggerContribution.type, "rt");
  assert.deepEqual(debuggerContribution.configurationAttributes, JSON.parse(JSON.stringify(configurationAttributes())));
  assert.deepEqual(manifest.contributes.taskDefinitions[0].type, "rt");
});

test("the bundled runtime runs a TypeScript file and rt.secrets loads, with nothing from the repository", (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "rt-vsix-runtime-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // With no bus, a store call fails with ERR_SECRETS_NO_BUS: the keyring addon loaded (a missing
  // addon would be ERR_SECRETS_UNAVAILABLE).
  writeFileSync(
    path.join(dir, "app.ts"),
    'import { secrets } from "rt";\nconst n: number = 41 + 1;\nconsole.log(n, await secrets.get("svc", "name").catch((error) => error.code));\n',
  );
  // cwd outside the repository: only the package's own node_modules can serve.
  const env = { ...process.env, NODE_PATH: "", XDG_CACHE_HOME: dir, DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(dir, "no-bus")}` };
  const result = spawnSync(process.execPath, ["--", path.join(shipped, "runtime", "bin", "rt.cjs"), "app.ts"], { cwd: dir, encoding: "utf8", env });
  assert.deepEqual({ code: result.status, stdout: result.stdout, stderr: result.stderr }, { code: 0, stdout: "42 ERR_SECRETS_NO_BUS\n", stderr: "" });
});
