// Bundles the adapter: index.cjs (RtDebugSession, for the extension's inline adapter), main.cjs
// (the standalone adapter over stdio) and configuration.cjs (the launch/attach attribute table
// the extension generates its package.json contributions from).
import { build } from "esbuild";

await build({
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  sourcemap: "linked",
  entryPoints: { index: "src/index.ts", main: "src/main.ts", configuration: "src/configuration.ts" },
  // ws's optional native helpers are not installed; it falls back to JavaScript.
  external: ["bufferutil", "utf-8-validate"],
  logLevel: "warning",
});
