// rt's compiled front for every platform (issue 29): one package per <os>-<cpu>, picked by npm
// through its os/cpu fields, cross-compiled with GOOS/GOARCH, go vet clean for each system, and
// an install without the platform package behaving exactly as one with it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { binaryTarget } from "../../test/support/binary-format.mjs";
import { buildPlatforms, findGo, frontName, goEnvironment, PLATFORMS, platformPackages } from "../native/build.mjs";
import { REPO, skipUnlessCI } from "./rt.mjs";

const RUNTIME = path.join(REPO, "runtime");
const runtimeManifest = JSON.parse(readFileSync(path.join(RUNTIME, "package.json"), "utf8"));
const TARGETS = ["darwin-arm64", "darwin-x64", "linux-arm64", "linux-x64", "win32-x64"];

test("one package per platform, each with npm's os/cpu fields and an exact-version optional dependency of rt-runtime", () => {
  const packages = platformPackages();
  assert.deepEqual(packages.map(({ name }) => name).sort(), TARGETS);
  for (const { name, manifest } of packages) {
    const [os, cpu] = name.split("-");
    assert.deepEqual(
      { name: manifest.name, version: manifest.version, os: manifest.os, cpu: manifest.cpu, files: manifest.files },
      { name: `rt-runtime-${name}`, version: runtimeManifest.version, os: [os], cpu: [cpu], files: [`bin/${frontName(name)}`] },
    );
  }
  assert.deepEqual(runtimeManifest.optionalDependencies, Object.fromEntries(TARGETS.map((name) => [`rt-runtime-${name}`, runtimeManifest.version])));
});

test("go vet is clean for Linux, macOS and Windows, and the front cross-compiles into every platform package", (t) => {
  const go = findGo();
  if (!go) return skipUnlessCI(t, "Go is not installed: the cross builds and go vet are not checked");
  for (const GOOS of ["linux", "darwin", "windows"]) {
    const vet = spawnSync(go, ["vet", "./..."], { cwd: path.join(RUNTIME, "native"), encoding: "utf8", env: goEnvironment({ GOOS, GOARCH: "amd64" }) });
    assert.equal(vet.status, 0, `go vet (GOOS=${GOOS}):\n${vet.stderr}`);
  }
  const built = buildPlatforms();
  assert.deepEqual(
    built.map((file) => path.relative(PLATFORMS, file).split(path.sep).join("/")),
    TARGETS.map((name) => `${name}/bin/${frontName(name)}`),
  );
  for (const file of built) assert.equal(binaryTarget(file), path.relative(PLATFORMS, file).split(path.sep)[0], file);
});

/**
 * A project with rt-runtime installed as npm lays it out (the package's files, its postinstall
 * run, node_modules/.bin/rt linked to its bin), with this platform's package beside it or not.
 * It sits under the repository so that rt-runtime's own dependencies resolve from its node_modules.
 */
function installedProject(t, withPlatformPackage) {
  mkdirSync(path.join(REPO, "test", ".tmp"), { recursive: true });
  const project = mkdtempSync(path.join(REPO, "test", ".tmp", "platforms-"));
  t.after(() => rmSync(project, { recursive: true, force: true }));
  const modules = path.join(project, "node_modules");
  const installed = path.join(modules, "rt-runtime");
  for (const entry of ["package.json", "bin", "dist", "schema", "types"]) {
    cpSync(path.join(RUNTIME, entry), path.join(installed, entry), {
      recursive: true,
      filter: (file) => !file.endsWith(".map") && !file.includes(`${path.sep}types${path.sep}`),
    });
  }
  const platform = `${process.platform}-${process.arch}`;
  if (withPlatformPackage) cpSync(path.join(PLATFORMS, platform), path.join(modules, `rt-runtime-${platform}`), { recursive: true });
  const postinstall = spawnSync(process.execPath, ["bin/link-front.cjs"], { cwd: installed, encoding: "utf8" });
  assert.deepEqual({ code: postinstall.status, stderr: postinstall.stderr }, { code: 0, stderr: "" });
  mkdirSync(path.join(modules, ".bin"));
  symlinkSync(path.join("..", "rt-runtime", "bin", "rt"), path.join(modules, ".bin", "rt"));
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({
      name: "app",
      version: "1.0.0",
      scripts: { greet: "echo hello from greet", where: "node -p process.env.npm_lifecycle_event", fail: "exit 3" },
    }),
  );
  return { project, bin: path.join(installed, "bin", "rt") };
}

test("installed with this platform's package, rt is the compiled front; without it the Node CLI, with the same output", (t) => {
  if (!findGo()) return skipUnlessCI(t, "Go is not installed: there is no compiled front to install");
  const platform = `${process.platform}-${process.arch}`;
  if (!TARGETS.includes(platform) || platform.startsWith("win32")) return t.skip(`${platform}: npm's rt shim starts bin/rt with node here`);
  buildPlatforms();
  const withFront = installedProject(t, true);
  const withoutFront = installedProject(t, false);
  assert.equal(binaryTarget(withFront.bin), platform);
  assert.match(readFileSync(withoutFront.bin, "utf8"), /^#!\/usr\/bin\/env -S node --\n/);
  // The Node on PATH is this test's (>= 22.15): the front runs scripts itself only on such a Node.
  const env = { ...process.env, PATH: [path.dirname(process.execPath), process.env.PATH].join(path.delimiter), NO_COLOR: "1" };
  const run = ({ project }, args) => {
    const result = spawnSync(path.join(project, "node_modules", ".bin", "rt"), args, { cwd: project, encoding: "utf8", env });
    return { code: result.status, stdout: result.stdout.replaceAll(project, "<project>"), stderr: result.stderr.replaceAll(project, "<project>") };
  };
  for (const args of [["run", "greet"], ["greet"], ["run", "where"], ["run", "fail"], ["run"], ["run", "--json"], ["--version"]]) {
    const expected = run(withoutFront, args);
    assert.deepEqual(run(withFront, args), expected, `rt ${args.join(" ")}`);
  }
  assert.deepEqual(run(withFront, ["run", "greet"]), { code: 0, stdout: "hello from greet\n", stderr: "$ echo hello from greet\n" });
  assert.equal(run(withFront, ["run", "fail"]).code, 3);
});
