// Modules made from non-script files: json, toml, text, file, wasm and napi loaders.
// `import` gets an ES module (default export plus named exports where the keys allow it),
// `require` gets a CommonJS module whose exports are the value.
import { readFileSync } from "node:fs";
import { parseJson, parseToml } from "../data-files.js";
import type { ModuleFormat } from "../transpile/cache.js";

// The part of the WebAssembly global this module uses (TypeScript's only full typing is in the DOM lib).
declare const WebAssembly: {
  Module: { new (bytes: Uint8Array): object; exports(module: object): { name: string }[] };
};

export type AssetLoader = "json" | "toml" | "text" | "file" | "wasm" | "napi";

export interface AssetModule {
  readonly format: ModuleFormat;
  readonly source: string;
}

export function assetModule(file: string, loader: AssetLoader, forRequire: boolean): AssetModule {
  const pathLiteral = JSON.stringify(file);
  switch (loader) {
    case "json":
      return valueModule(parseJsonAsset(file), forRequire);
    case "toml":
      return valueModule(parseTomlAsset(file), forRequire);
    case "text":
      return valueModule(readFileSync(file, "utf8"), forRequire);
    case "file":
      return valueModule(file, forRequire);
    case "napi":
      return { format: "commonjs", source: `process.dlopen(module, ${pathLiteral});` };
    case "wasm": {
      const names = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(file))).map((entry) => entry.name);
      const instantiate =
        `const { readFileSync } = require("node:fs");\n` +
        `const wasm = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(${pathLiteral})), {}).exports;\n`;
      if (forRequire) return { format: "commonjs", source: `${instantiate}module.exports = wasm;\n` };
      return {
        format: "module",
        source:
          `import { createRequire } from "node:module";\nconst require = createRequire(${JSON.stringify("file://" + file)});\n` +
          `${instantiate}export default wasm;\n${namedExports(names, "wasm")}`,
      };
    }
  }
}

function valueModule(value: unknown, forRequire: boolean): AssetModule {
  const literal = JSON.stringify(value);
  if (forRequire) return { format: "commonjs", source: `module.exports = ${literal};\n` };
  const keys = value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
  return { format: "module", source: `const value = ${literal};\nexport default value;\n${namedExports(keys, "value")}` };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await".split(
    " ",
  ),
);

function namedExports(names: readonly string[], from: string): string {
  const usable = names.filter((name) => IDENTIFIER.test(name) && !RESERVED.has(name));
  return usable.length ? `export const { ${usable.join(", ")} } = ${from};\n` : "";
}

/** The text of a JSON file, after checking that it parses. */
export function checkedJson(file: string): string {
  const text = readFileSync(file, "utf8");
  parseJson(file, text, "ERR_INVALID_JSON");
  return text;
}

function parseJsonAsset(file: string): unknown {
  return parseJson(file, readFileSync(file, "utf8"), "ERR_INVALID_JSON");
}

function parseTomlAsset(file: string): unknown {
  return parseToml(file, readFileSync(file, "utf8"), "ERR_INVALID_TOML");
}
