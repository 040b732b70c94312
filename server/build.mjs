// Bundles the server into one file: one module to load makes a fast start (the editor waits for
// `initialize`). The runtime's exports (rt/flags, rt/scripts, rt/rtfig.schema.json) are bundled
// from its built dist/, so the server carries the flag table of the rt it was built with.
import { readFileSync } from "node:fs";
import { build } from "esbuild";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
await build({
  entryPoints: { server: "src/main.ts" },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node22",
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  // jsonc-parser's "main" is a UMD build esbuild cannot follow; its ESM build bundles cleanly.
  mainFields: ["module", "main"],
  define: { SERVER_VERSION: JSON.stringify(version) },
  banner: { js: "#!/usr/bin/env node" },
  sourcemap: "linked",
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
});
