// esbuild plugins of `rt build`: macros (expanded as the runtime expands them) and TOML files
// (imported as rt imports them: the parsed value).
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { Loader, Plugin } from "esbuild";
import { parseToml } from "../data-files.js";
import { ProgramError } from "../errors.js";
import { checkMacros, expandMacros, type MacroContext } from "../macros/expand.js";
import { MacroError, mayImportMacros, scanMacros } from "../macros/scan.js";
import type { TranspileSettings } from "../transpile/options.js";

const SCRIPT_LOADERS = new Set<string>(["js", "jsx", "ts", "tsx"]);

/**
 * Expands the macro calls of each script that imports macros. esbuild asks for every script, so
 * the text check comes first; a file without "macro" is left to esbuild's own loading.
 */
export function macroPlugin(transpile: TranspileSettings, context: MacroContext): Plugin {
  const scripts = Object.entries(transpile.loaders).filter(([, loader]) => SCRIPT_LOADERS.has(loader));
  const filter = new RegExp(`(${scripts.map(([ext]) => ext.replace(/\./g, "\\.")).join("|")})$`);
  return {
    name: "rt-macros",
    setup(build) {
      build.onLoad({ filter, namespace: "file" }, async ({ path: file }) => {
        const text = readFileSync(file, "utf8");
        if (!mayImportMacros(text)) return undefined;
        const loader = transpile.loaders[path.extname(file)] as Loader;
        const resolveDir = path.dirname(file);
        try {
          const plan = scanMacros(file, text, loader === "tsx" || loader === "jsx");
          if (!plan) return undefined;
          // esbuild's resolver follows the same flags as the bundle's own imports.
          const modules = await Promise.all(
            plan.imports.map(async ({ specifier }) => {
              const found = await build.resolve(specifier, { resolveDir, importer: file, kind: "import-statement", with: { type: "macro" } });
              return found.errors.length > 0 || found.external ? undefined : found.path;
            }),
          );
          const prepared = checkMacros(plan, context, modules);
          // --watch rebuilds when a macro module changes, though the bundle never contains it.
          return { contents: await expandMacros(prepared, context), loader, resolveDir, watchFiles: [...prepared.modules] };
        } catch (error) {
          return failure(error);
        }
      });
    },
  };
}

function failure(error: unknown) {
  if (error instanceof MacroError) return { errors: [{ text: error.text, location: error.location }] };
  if (error instanceof ProgramError) return { errors: [{ text: error.message }] };
  throw error;
}

export function tomlPlugin(extensions: readonly string[]): Plugin {
  const filter = new RegExp(`(${extensions.map((ext) => ext.replace(/\./g, "\\.")).join("|")})$`);
  return {
    name: "rt-toml",
    setup(build) {
      build.onLoad({ filter, namespace: "file" }, async ({ path: file }) => {
        try {
          const value = parseToml(file, readFileSync(file, "utf8"), "ERR_TOML");
          return { contents: JSON.stringify(value), loader: "json" };
        } catch (error) {
          return failure(error);
        }
      });
    },
  };
}
