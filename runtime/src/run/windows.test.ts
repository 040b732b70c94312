// The runner's Windows rules (cmd.exe, its quoting, PATHEXT, `Path`, `;` and `\`), checked on
// every system: each function takes the `path` whose rules apply, here path.win32.
import assert from "node:assert/strict";
import * as path from "node:path";
import { test } from "node:test";
import { nodeShim, scriptPath } from "./environment.js";
import { appendArguments, directLaunch, scriptInvocation } from "./shell.js";
import { executableCandidates, pathKey } from "./target.js";

const env = { ComSpec: "C:\\Windows\\system32\\cmd.exe", PATHEXT: ".COM;.EXE;.BAT;.CMD" };

test("on Windows every script runs in the cmd.exe %ComSpec% names, its command line untouched", () => {
  // A simple command is not started directly: cmd.exe finds .cmd shims and runs its built-ins.
  assert.deepEqual(scriptInvocation("system", "tsc -b", env, path.win32), {
    file: "C:\\Windows\\system32\\cmd.exe",
    args: ["/d", "/s", "/c", '"tsc -b"'],
    verbatim: true,
  });
  assert.equal(scriptInvocation("system", "tsc -b", {}, path.win32).file, "cmd.exe");
});

test("on Windows arguments appended to a script are double-quoted for cmd.exe, rt's shell keeps POSIX quoting", () => {
  assert.equal(appendArguments("vitest", ["--grep", "a b", 'say "hi"'], "system", path.win32), 'vitest --grep "a b" "say ""hi"""');
  assert.equal(appendArguments("vitest", ["a b"], "rt", path.win32), "vitest 'a b'");
  assert.equal(appendArguments("vitest", ["a b"], "system", path.posix), "vitest 'a b'");
});

test("on Windows a .cmd or .bat binary starts through cmd.exe, an .exe directly", () => {
  const shim = "C:\\work\\app\\node_modules\\.bin\\tsc.cmd";
  const launch = directLaunch(shim, ["--watch", "src dir"], path.win32);
  assert.deepEqual(launch.args.slice(0, 3), ["/d", "/s", "/c"]);
  assert.equal(launch.args[3], `""${shim}" --watch "src dir""`);
  assert.equal(launch.verbatim, true);
  assert.deepEqual(directLaunch("C:\\tools\\esbuild.exe", ["--version"], path.win32), { file: "C:\\tools\\esbuild.exe", args: ["--version"] });
  assert.deepEqual(directLaunch("/usr/bin/tsc.cmd", [], path.posix), { file: "/usr/bin/tsc.cmd", args: [] });
});

test("on Windows PATH is whatever case the environment spells it, else Path", () => {
  assert.equal(pathKey({ Path: "C:\\Windows" }, path.win32), "Path");
  assert.equal(pathKey({ PATH: "C:\\Windows" }, path.win32), "PATH");
  assert.equal(pathKey({}, path.win32), "Path");
  assert.equal(pathKey({ Path: "/bin" }, path.posix), "PATH");
});

test("on Windows a program is looked for with each %PATHEXT% extension", () => {
  assert.deepEqual(executableCandidates("C:\\work\\node_modules\\.bin", "tsc", env, path.win32), [
    "C:\\work\\node_modules\\.bin\\tsc",
    "C:\\work\\node_modules\\.bin\\tsc.COM",
    "C:\\work\\node_modules\\.bin\\tsc.EXE",
    "C:\\work\\node_modules\\.bin\\tsc.BAT",
    "C:\\work\\node_modules\\.bin\\tsc.CMD",
  ]);
  assert.deepEqual(executableCandidates("/work/node_modules/.bin", "tsc", env, path.posix), ["/work/node_modules/.bin/tsc"]);
});

test("on Windows a script's PATH has node_modules\\.bin of the package and each ancestor, joined with ;", () => {
  assert.equal(
    scriptPath("C:\\work\\app", "C:\\Windows;C:\\nodejs", "C:\\cache\\rt\\node-shim\\x", path.win32),
    "C:\\cache\\rt\\node-shim\\x;C:\\work\\app\\node_modules\\.bin;C:\\work\\node_modules\\.bin;C:\\node_modules\\.bin;C:\\Windows;C:\\nodejs",
  );
  assert.equal(scriptPath("/work/app", undefined, undefined, path.posix), "/work/app/node_modules/.bin:/work/node_modules/.bin:/node_modules/.bin");
});

test("on Windows the node shim is node.cmd, with paths in double quotes", () => {
  assert.deepEqual(nodeShim("C:\\Program Files\\nodejs\\node.exe", "C:\\rt\\dist\\node-shim.cjs", path.win32), [
    "node.cmd",
    '@"C:\\Program Files\\nodejs\\node.exe" -- "C:\\rt\\dist\\node-shim.cjs" %*\r\n',
  ]);
  assert.deepEqual(nodeShim("/opt/it's/node", "/rt/dist/node-shim.cjs", path.posix), [
    "node",
    `#!/bin/sh\nexec '/opt/it'"'"'s/node' -- '/rt/dist/node-shim.cjs' "$@"\n`,
  ]);
});
