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
// rt's cache root, private to this user, with V8's code cache enabled for the bundle loaded next.
const cacheRoot = require("../dist/cache-root.cjs").openCacheRoot(process.env);
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
