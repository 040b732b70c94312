// Bundles the server into one file: one module to load makes a fast start (the editor waits for
// `initialize`). The runtime's exports (rt-runtime/flags, rt-runtime/scripts, rt-runtime/rtfig.schema.json) are bundled
// from its built dist/, so the server carries the flag table of the rt it was built with.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";
import { build } from "esbuild";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
// rtfig.toml's validator, compiled by ajv here rather than in every server start (compiling
// it takes hundreds of milliseconds): the module "rtfig-schema-validator" is its standalone code.
const rtfigValidator = {
  name: "rtfig-schema-validator",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^rtfig-schema-validator$/ }, (args) => ({ path: args.path, namespace: "generated" }));
    esbuild.onLoad({ filter: /.*/, namespace: "generated" }, () => {
      const schema = JSON.parse(readFileSync(new URL(import.meta.resolve("rt-runtime/rtfig.schema.json")), "utf8"));
      const ajv = new Ajv({ allErrors: true, strict: false, code: { source: true, esm: true } });
      return { contents: standaloneCode(ajv, ajv.compile(schema)), loader: "js", resolveDir: fileURLToPath(new URL(".", import.meta.url)) };
    });
  },
};

await build({
  entryPoints: { "server-main": "src/main.ts" },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node22",
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  // jsonc-parser's "main" is a UMD build esbuild cannot follow; its ESM build bundles cleanly.
  mainFields: ["module", "main"],
  define: { SERVER_VERSION: JSON.stringify(version) },
  sourcemap: "linked",
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [rtfigValidator],
  logLevel: "warning",
});

// The program: V8's compile cache first, as rt's own launcher does (compiling the 480 KB bundle
// is the largest item of a start in a CPU profile; with the cache it is read back), then the
// server, only when run as a program (node server.cjs, fork): an extension may
// require.resolve("rt-language-server") without starting one in itself.
writeFileSync(
  new URL("./dist/server.cjs", import.meta.url),
  `#!/usr/bin/env node
"use strict";
if (require.main === module) {
  require("node:module").enableCompileCache?.();
  require("./server-main.cjs").main();
}
`,
  { mode: 0o755 },
);
