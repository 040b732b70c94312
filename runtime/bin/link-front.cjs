"use strict";
// postinstall: puts rt's compiled front, from the platform package npm picked by its os/cpu
// fields (rt-runtime-<os>-<cpu>, an optional dependency), in place of bin/rt, the file npm links
// as `rt`, as esbuild does with its binary. The front finds bin/rt.cjs beside itself. Nothing
// changes when there is no such package (another platform, --omit=optional, --ignore-scripts),
// on Windows (npm's rt.cmd shim starts bin/rt with node) or in rt's own repository: bin/rt
// starts the Node CLI, which behaves the same.
const fs = require("node:fs");
const path = require("node:path");

function linkFront() {
  if (process.platform === "win32" || !__dirname.split(path.sep).includes("node_modules")) return;
  let front;
  try {
    front = require.resolve(`rt-runtime-${process.platform}-${process.arch}/bin/rt`);
  } catch {
    return;
  }
  const bin = path.join(__dirname, "rt");
  const temporary = `${bin}.${process.pid}.tmp`;
  try {
    // A hard link costs no space; another file system needs a copy.
    try {
      fs.linkSync(front, temporary);
    } catch {
      fs.copyFileSync(front, temporary);
    }
    fs.chmodSync(temporary, 0o755);
    fs.renameSync(temporary, bin);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    process.stderr.write(`rt-runtime: could not install the compiled front (${error.message}); rt starts through Node instead\n`);
  }
}

linkFront();
