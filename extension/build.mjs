// Builds the extension: bundles src/extension.ts (with vscode-languageclient and the debug
// adapter) into dist/extension.cjs, and writes the generated parts of package.json's
// `contributes` from their one typed source: commands and settings from src/contributions.ts,
// the debugger's launch/attach attributes from rt-debug-adapter/configuration.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { configurationAttributes } from "rt-debug-adapter/configuration";
import { COMMANDS, DEBUG_TYPE, KEYBINDINGS, LAYOUT, SETTINGS } from "./src/contributions.ts";

const manifestUrl = new URL("./package.json", import.meta.url);
const manifest = JSON.parse(readFileSync(manifestUrl, "utf8"));
const contributes = manifest.contributes;

contributes.commands = Object.values(COMMANDS).map(({ id, title, icon }) => ({ command: id, title, category: "rt", ...(icon ? { icon } : {}) }));
contributes.menus.commandPalette = Object.values(COMMANDS)
  .filter((command) => command.paletteHidden)
  .map(({ id }) => ({ command: id, when: "false" }));
// (An extension's keybinding outranks VS Code's own F5 where its `when` holds.)
contributes.keybindings = KEYBINDINGS;
contributes.configuration.properties = Object.fromEntries(Object.values(SETTINGS).map(({ id, ...schema }) => [id, schema]));

// The debugger's launch/attach attributes come from the adapter's one typed table.
const debuggerContribution = contributes.debuggers.find((contribution) => contribution.type === DEBUG_TYPE);
debuggerContribution.configurationAttributes = configurationAttributes();

// Every command a menu names must be one of ours: a renamed id would leave a dead button.
const known = new Set(Object.values(COMMANDS).map(({ id }) => id));
for (const [menu, items] of Object.entries(contributes.menus)) {
  for (const item of items) if (!known.has(item.command)) throw new Error(`package.json menu ${menu} names unknown command ${item.command}`);
}

const generated = JSON.stringify(manifest, null, 2) + "\n";
if (generated !== readFileSync(manifestUrl, "utf8")) writeFileSync(manifestUrl, generated);

// The secrets module is the runtime's own file (it finds its store thread next to itself), so
// it is not bundled: the packaged extension loads it from the runtime it ships.
const runtimeModules = {
  name: "runtime-modules",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^rt-runtime\/secrets$/ }, () => ({ path: `../${LAYOUT.runtime}/dist/secrets.cjs`, external: true }));
  },
};

await build({
  // Paths below are relative to this package, wherever the build is started from.
  absWorkingDir: fileURLToPath(new URL(".", import.meta.url)),
  // language-client and debug-adapter: loaded with require("./<name>.cjs") when first needed.
  entryPoints: { extension: "src/extension.ts", "language-client": "src/features/language/client.ts", "debug-adapter": "src/features/debug/adapter.ts" },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  external: ["vscode", "./language-client.cjs", "./debug-adapter.cjs"],
  // The time the extension host starts loading the bundle: activation is measured from here.
  banner: { js: "const __rtLoadStart = performance.now();" },
  sourcemap: "linked",
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [runtimeModules],
  logLevel: "warning",
});
