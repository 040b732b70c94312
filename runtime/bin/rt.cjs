#!/usr/bin/env -S node --
"use strict";
// The `--` stops Node from acting on rt's own flags: Node reads `--env-file` even after the script name.
// rt's launcher: refuse Node versions without the APIs rt stands on, then start the CLI bundle.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 15)) {
  process.stderr.write(
    `rt: needs Node.js >= 22.15, but \`node\` on PATH is ${process.version} (${process.execPath}).\n` +
      "Run rt through npm (npx rt, npm scripts), which puts the project's Node first on PATH, or install Node 24.\n",
  );
  process.exit(1);
}
// rt's caches live in $XDG_CACHE_HOME/rt (else ~/.cache/rt). V8's code cache for rt's bundle and
// the modules it loads is enabled before the bundle loads, so the bundle benefits too, but only
// in a v8/ of this user's alone (as distrust() in src/transpile/cache.ts decides): the CLI makes
// it so, and checks the rest (src/register/cache-root.ts). Computed from the environment only:
// os.tmpdir() & co cost a module load.
const home = process.env.XDG_CACHE_HOME || (process.env.HOME && `${process.env.HOME}/.cache`);
const cacheRoot = home ? `${home}/rt` : undefined;
const v8 = cacheRoot && require("node:fs").statSync(`${cacheRoot}/v8`, { throwIfNoEntry: false });
if (v8 && (process.getuid === undefined || (v8.uid === process.getuid() && !(v8.mode & 0o022)))) {
  require("node:module").enableCompileCache(`${cacheRoot}/v8`);
}
const args = process.argv.slice(2);
// A debugger's server thread boots for 25-35 ms, longer than the CLI takes to load and find the
// program: when one of rt's own flags (those before the first other argument) asks for a
// debugger, it starts before the CLI loads. The CLI still decides; an unused thread never listens.
// (Not under --watch: the supervisor runs no program; the process it starts boots its own.)
const firstOther = args.findIndex((arg) => !arg.startsWith("-"));
const ownFlags = firstOther === -1 ? args : args.slice(0, firstOther);
const asksForDebugger = ownFlags.some((arg) => /^--inspect(-wait|-brk)?(=|$)/.test(arg)) && !ownFlags.some((arg) => /^--watch(=|$)/.test(arg));
const inspectorThread = asksForDebugger ? require("../dist/inspector-thread.cjs").startInspectorThread() : undefined;
require("../dist/cli.cjs").main(args, cacheRoot, inspectorThread);
