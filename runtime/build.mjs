// Bundles the CLI into one file (fast startup: one module to load), the inspector's server
// thread and its web debugger, and writes the "rt" module.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { build } from "esbuild";
import { API_MEMBERS } from "./src/api/members.ts";
import { buildNativeFront } from "./native/build.mjs";

const { version, dependencies } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const { version: esbuildVersion } = JSON.parse(readFileSync(new URL(import.meta.resolve("esbuild/package.json")), "utf8"));
const { version: typescriptVersion } = JSON.parse(readFileSync(new URL(import.meta.resolve("typescript/package.json")), "utf8"));
const outdir = new URL("./dist/", import.meta.url);
mkdirSync(outdir, { recursive: true });

// esbuild emits a require() of a Node built-in at every module that imports it, and wraps default
// and namespace imports in a helper that copies every property of the built-in (~20 us each, at
// every start). This plugin routes `import` statements of built-ins through one shared module
// per built-in that requires it once and exports each binding by name (unused ones tree-shaken).
const nodeRequire = createRequire(import.meta.url);
const oneRequirePerBuiltin = {
  name: "one-require-per-builtin",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === "import-statement" && args.namespace !== "builtin" ? { path: args.path, namespace: "builtin", sideEffects: false } : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => {
      const names = Object.keys(nodeRequire(args.path)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== "default");
      const bindings = names.map((name) => `export const ${name} = /* @__PURE__ */ (() => builtin.${name})();`);
      return { contents: [`const builtin = require(${JSON.stringify(args.path)});`, "export default builtin;", ...bindings].join("\n"), loader: "js" };
    });
  },
};

// rt.serve makes HTTP/1.1 servers only; @hono/node-server requires node:http2 just for
// `instanceof Http2ServerRequest` checks, and loading node:http2 is the largest part of the first
// rt.serve call. Its copy in the serve bundle gets a class nothing is an instance of.
const noHttp2InServeAdapter = {
  name: "no-http2-in-serve-adapter",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^node:http2$/ }, (args) =>
      /@hono[\\/]node-server/.test(args.importer) ? { path: "http2", namespace: "http1-only" } : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: "http1-only" }, () => ({
      contents: "module.exports = { Http2ServerRequest: class Http2ServerRequest {}, constants: {} };",
      loader: "js",
    }));
  },
};

const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node22",
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  // ESBUILD_VERSION is part of the transpiler cache key: a new esbuild may print other code;
  // TYPESCRIPT_VERSION too, for the files TypeScript lowers first (emitDecoratorMetadata), and
  // CJS_LEXER_VERSION (pinned exactly in package.json) for the lexer's cached findings.
  define: {
    RT_VERSION: JSON.stringify(version),
    ESBUILD_VERSION: JSON.stringify(esbuildVersion),
    TYPESCRIPT_VERSION: JSON.stringify(typescriptVersion),
    CJS_LEXER_VERSION: JSON.stringify(dependencies["cjs-module-lexer"]),
  },
  sourcemap: "linked",
  // Less to parse at every start; identifiers keep their names for readable traces of rt itself.
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [noHttp2InServeAdapter, oneRequirePerBuiltin],
  logLevel: "warning",
};

await Promise.all([
  build({
    ...common,
    // schema: rtfig.toml's JSON Schema generator, for the test that keeps schema/rtfig.schema.json current.
    // rt-shell: rt's portable shell (--shell=rt), started as a process of its own, so its
    // interpreter is never part of the CLI bundle that every rt start loads.
    // scripts: `rt-runtime/scripts` for the language server: what a name runs, lifecycles, workspace
    // selection and rt's argument scanner, so the editor agrees with rt.
    // secrets*: rt.secrets and `rt secrets` load them on first use (also `require("rt-runtime/secrets")`).
    // serve: rt.serve with its HTTP adapter (@hono/node-server) bundled in, loaded by its first
    // call; bundled, the adapter's frames are rt's own and stay out of the program's stack traces.
    entryPoints: {
      cli: "src/cli/main.ts",
      flags: "src/flags/table.ts",
      schema: "src/config/schema.ts",
      "rt-shell": "src/run/rt-shell.ts",
      secrets: "src/secrets/index.ts",
      scripts: "src/run/editor-api.ts",
      "secrets-store-thread": "src/secrets/store-thread.ts",
      "secrets-list": "src/secrets/list-process.ts",
      // Macros run in a process of their own, started by the transpiler or rt build.
      "macro-runner": "src/macros/runner.ts",
      serve: "src/serve/index.ts",
      // The debugger stop policy, for the debug adapter (`rt-runtime/stop-policy`).
      "stop-policy": "src/inspector/stop-policy.ts",
      sql: "src/stores/sql.ts",
      redis: "src/stores/redis.ts",
      installer: "src/install/installer.ts",
      // `node` in scripts under --rt: rt's CLI, or Node itself with rt-runtime/register for Node's own flags.
      "node-shim": "src/run/node-shim.ts",
      // What the launcher loads instead of the CLI on a Node older than rt needs: rt's own Node.
      "own-node": "src/launcher/own-node.ts",
      // What the launcher loads the CLI bundle with: V8's code cache made after a run.
      "code-cache": "src/launcher/code-cache.ts",
    },
    // Loaded on demand from node_modules, so a plain run compiles none of them: esbuild on a
    // cache miss (it must stay a package anyway: it finds its binary relative to itself),
    // jsonc-parser when there is a tsconfig.json, smol-toml when a program imports TOML,
    // trace-mapping when a stack trace needs original positions, js-tokens to highlight a preview,
    // typescript (5.x: transpileModule) for a file with decorators under emitDecoratorMetadata,
    // @napi-rs/keyring (a native addon) in the thread or process that talks to the credential store.
    // postgres and @redis/client when a program uses rt.sql / rt.redis; pacote (npm's fetcher)
    // and npm-package-arg in the auto-install process.
    external: [
      "pacote",
      "npm-package-arg",
      "ini",
      "esbuild",
      "typescript",
      "jsonc-parser",
      "smol-toml",
      "@jridgewell/trace-mapping",
      "js-tokens",
      "@napi-rs/keyring",
      "postgres",
      "@redis/client",
    ],
  }),
  // The inspector's server thread (ws loads from node_modules when a client connects), and what
  // starts it, which the launcher loads before the CLI when a debugger flag is given.
  build({ ...common, entryPoints: { "inspector-worker": "src/inspector/worker.ts", "inspector-thread": "src/inspector/thread.ts" }, external: ["ws"] }),
  // rt-runtime/register: a small gate that loads the CLI bundle (and registers its loader) only when wanted.
  build({ ...common, entryPoints: { register: "src/register/preload.ts" } }),
  // The web debugger: a page rt serves itself, so it works offline.
  build({
    ...common,
    platform: "browser",
    format: "iife",
    target: "es2022",
    entryPoints: { app: "src/inspector/ui/app.ts" },
    outdir: "dist/inspector-ui",
    outExtension: {},
    plugins: [],
  }),
]);
for (const asset of ["index.html", "style.css"]) {
  copyFileSync(new URL(`./src/inspector/ui/${asset}`, import.meta.url), new URL(`./dist/inspector-ui/${asset}`, import.meta.url));
}
// What /json/protocol serves: V8's protocol descriptor (the domains a client reaches through rt).
copyFileSync(nodeRequire.resolve("devtools-protocol/json/js_protocol.json"), new URL("./dist/inspector-protocol.json", import.meta.url));

// The "rt" module is the running program's namespace. The never-executed assignment lets
// Node's CommonJS export detection see the names, so `import { version } from "rt"` works.
writeFileSync(
  new URL("api.cjs", outdir),
  `"use strict";
// The "rt" module: the namespace of the program rt is running (the same object as globalThis.rt).
if (!globalThis.rt) throw new Error('The "rt" module is only available in programs run by rt (rt <file>).');
module.exports = globalThis.rt;
0 && (module.exports = { ${API_MEMBERS.join(", ")} });
`,
);

// rt's compiled front for `rt run <script>` (native/), when Go is installed; else rt starts on Node as before.
buildNativeFront(version);
