// Preloaded into rt with NODE_OPTIONS=--require: reports, when rt exits, whether it installed module
// hooks and which heavy modules it loaded. Only the first process reports (scripts inherit NODE_OPTIONS).
"use strict";
if (!process.env.RT_STARTUP_PROBE) {
  process.env.RT_STARTUP_PROBE = "reported";
  const Module = require("node:module");
  let hooks = false;
  const registerHooks = Module.registerHooks;
  Module.registerHooks = (...args) => {
    hooks = true;
    return registerHooks(...args);
  };
  process.on("exit", () => {
    const esbuild = Object.keys(require.cache).some((file) => /[/\\]esbuild[/\\]/.test(file));
    const childProcess = process.moduleLoadList.includes("NativeModule child_process");
    require("node:fs").writeSync(2, `probe: hooks=${hooks} esbuild=${esbuild} child_process=${childProcess}\n`);
  });
}
