#!/usr/bin/env -S node --
"use strict";
// The `--` stops Node from acting on rt's own flags: Node reads `--env-file` even after the script name.
// rt's launcher: start the CLI bundle on this Node, or, when it is older than rt needs (22.15:
// the APIs rt stands on), on a Node of rt's own (dist/own-node.cjs; nothing is spawned otherwise).
const [major, minor] = process.versions.node.split(".").map(Number);
const oldNode = major < 22 || (major === 22 && minor < 15);
// rt's caches live in $XDG_CACHE_HOME/rt (else ~/.cache/rt). V8's code cache for rt's bundle and
// the modules it loads is enabled before the bundle loads, so the bundle benefits too, but only
// in a v8/ of this user's alone (as distrust() in src/transpile/cache.ts decides): the CLI makes
// it so, and checks the rest (src/register/cache-root.ts). Computed from the environment only:
// os.tmpdir() & co cost a module load.
const home = process.env.XDG_CACHE_HOME || (process.env.HOME && `${process.env.HOME}/.cache`);
const cacheRoot = home ? `${home}/rt` : undefined;
const args = process.argv.slice(2);
if (oldNode) require("../dist/own-node.cjs").runOnOwnNode(__filename, args, cacheRoot);
else start();

function start() {
  const v8 = cacheRoot && require("node:fs").statSync(`${cacheRoot}/v8`, { throwIfNoEntry: false });
  const privateV8 = v8 && (process.getuid === undefined || (v8.uid === process.getuid() && !(v8.mode & 0o022)));
  if (privateV8) require("node:module").enableCompileCache(`${cacheRoot}/v8`);
  // A debugger's server thread boots for 25-35 ms, longer than the CLI takes to load and find the
  // program: when one of rt's own flags (those before the first other argument) asks for a
  // debugger, it starts before the CLI loads. The CLI still decides; an unused thread never listens.
  // (Not under --watch: the supervisor runs no program; the process it starts boots its own.)
  const firstOther = args.findIndex((arg) => !arg.startsWith("-"));
  const ownFlags = firstOther === -1 ? args : args.slice(0, firstOther);
  const asksForDebugger = ownFlags.some((arg) => /^--inspect(-wait|-brk)?(=|$)/.test(arg)) && !ownFlags.some((arg) => /^--watch(=|$)/.test(arg));
  const inspectorThread = asksForDebugger ? require("../dist/inspector-thread.cjs").startInspectorThread() : undefined;
  // The CLI bundle with V8's code cache of the functions it ran last time (dist/code-cache.cjs).
  // Its path is joined, not require.resolve()d (that walks every component with lstat): this
  // file's own directory is already a real path, as Node resolves the main module's symlinks.
  const bundle = require("node:path").join(__dirname, "..", "dist", "cli.cjs");
  // A code cache holds the functions its first run compiled: file runs keep one of their own, so
  // that a first `rt --version` or `rt run build` does not leave every later `rt app.ts` compiling
  // the loader at each start (~2.5 ms). The guess is from the arguments only; a wrong one costs time.
  const target = args[firstOther] === "run" ? args[firstOther + 1] : args[firstOther];
  const use = target !== undefined && /\.[cm]?[jt]sx?$/.test(target) ? "file" : "command";
  const cli = require("../dist/code-cache.cjs").requireBundle(bundle, privateV8 ? `${cacheRoot}/v8` : undefined, use);
  // The bundle runs as a vm.Script, whose own import() would need a flag: it uses this module's.
  cli.main(args, cacheRoot, (url) => import(url), inspectorThread);
}
