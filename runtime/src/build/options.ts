// `rt build`'s flags → esbuild build options. The transpilation and resolution parts come from
// the runtime's own mapping (transpile/options.ts), so a bundle compiles exactly as `rt` runs.
import * as path from "node:path";
import type { BuildOptions, Loader } from "esbuild";
import type { FlagValues } from "../flags/parse.js";
import { flagDefault, type LoaderName } from "../flags/table.js";
import { UsageError } from "../errors.js";
import { readPackageJson } from "../loader/resolve.js";
import { resolutionSettings, transpileSettings, type TranspileSettings } from "../transpile/options.js";
import type { Tsconfig } from "../transpile/tsconfig.js";

export type BuildTarget = NonNullable<FlagValues["target"]>;
type SourceMapMode = NonNullable<FlagValues["sourcemap"]>;

export interface BundlePlan {
  readonly esbuild: BuildOptions;
  readonly transpile: TranspileSettings;
  /** Extensions the TOML plugin loads (esbuild has no TOML loader). */
  readonly tomlExtensions: readonly string[];
}

// rt's loaders that esbuild lacks: TOML is parsed by a plugin; wasm and napi files are copied
// next to the bundle and loaded from there at run time, as rt and Node load them.
const ESBUILD_LOADER: Readonly<Record<Exclude<LoaderName, "toml">, Loader>> = {
  js: "js",
  jsx: "jsx",
  ts: "ts",
  tsx: "tsx",
  json: "json",
  text: "text",
  file: "file",
  wasm: "copy",
  napi: "copy",
};

export function bundlePlan(entries: readonly string[], values: FlagValues, tsconfig: Tsconfig): BundlePlan {
  const target: BuildTarget = values.target ?? flagDefault("target");
  const format = values.format ?? flagDefault("format");
  const { outdir, outfile } = values;
  if (outdir !== undefined && outfile !== undefined)
    throw new UsageError("--outdir and --outfile exclude each other: --outfile names the one bundle, --outdir a folder for several");
  if (outfile !== undefined && entries.length > 1) throw new UsageError(`--outfile names one bundle but ${entries.length} entries were given: use --outdir`);
  const toStdout = outdir === undefined && outfile === undefined;
  if (toStdout && entries.length > 1) throw new UsageError("several entries need --outdir (without it, the one bundle goes to stdout)");
  const sourcemap: SourceMapMode = values.sourcemap ?? (toStdout ? "none" : "linked");
  if (toStdout && (sourcemap === "linked" || sourcemap === "external"))
    throw new UsageError(`--sourcemap=${sourcemap} writes a .map file: give --outdir or --outfile (or use --sourcemap=inline)`);
  if (values.splitting === true && (format !== "esm" || outdir === undefined))
    throw new UsageError("--splitting needs --format esm and --outdir (chunks are ES modules in the output folder)");

  // Built for shipping: the production JSX runtime unless NODE_ENV says otherwise.
  const transpile = transpileSettings(values, tsconfig, process.env.NODE_ENV ?? "production");
  // Everything of the runtime's mapping but what a bundle decides for itself (and the per-file
  // string banner/footer of the transform API, which the build API spells differently).
  const { target: _target, platform: _platform, sourcemap: _sourcemap, banner: _banner, footer: _footer, tsconfigRaw, ...transform } = transpile.esbuild;
  const resolution = resolutionSettings(values);
  const external = [...(values.external ?? []), ...(target === "rt" ? ["rt"] : [])];
  const node = target !== "browser";
  const loader: Record<string, Loader> = {};
  const tomlExtensions: string[] = [];
  for (const [ext, name] of Object.entries(transpile.loaders)) {
    if (name === "toml") tomlExtensions.push(ext);
    else loader[ext] = ESBUILD_LOADER[name];
  }
  const esbuild: BuildOptions = {
    ...transform,
    entryPoints: [...entries],
    bundle: true,
    platform: node ? "node" : "browser",
    target: node ? transpile.esbuild.target : "esnext",
    format,
    splitting: values.splitting === true,
    minify: values.minify === true,
    sourcemap: sourcemap === "none" ? false : sourcemap,
    outdir,
    outfile,
    outExtension: outdir === undefined || !node ? undefined : runnableExtension(outdir, format),
    external,
    loader,
    tsconfigRaw: { compilerOptions: { ...(tsconfigRaw as { compilerOptions: object }).compilerOptions, ...pathsOf(tsconfig) } },
    resolveExtensions: [...resolution.extensions],
    mainFields: resolution.mainFields && [...resolution.mainFields],
    conditions: [...resolution.conditions, ...(target === "rt" ? ["rt"] : [])],
    preserveSymlinks: resolution.preserveSymlinks,
    // An ES module bundle for Node still meets require() in CommonJS dependencies.
    banner:
      node && format === "esm"
        ? { js: 'import { createRequire as __rtCreateRequire } from "node:module"; const require = __rtCreateRequire(import.meta.url);' }
        : undefined,
    write: true,
    logLevel: toStdout ? "warning" : "info",
  };
  return { esbuild, transpile, tomlExtensions };
}

/** tsconfig `paths` for esbuild, absolute, since `tsconfigRaw` replaces the tsconfig.json files esbuild would read. */
function pathsOf(tsconfig: Tsconfig): Record<string, unknown> {
  const paths = tsconfig.paths;
  return paths ? { baseUrl: paths.base, paths: paths.paths } : {};
}

/**
 * Node decides a .js file's format by the nearest package.json's "type": an ES module bundle in a
 * `"type": "commonjs"` folder is written as .mjs, a CommonJS one under `"type": "module"` as .cjs,
 * so the output runs with `node` and `rt` wherever it lands.
 */
function runnableExtension(outdir: string, format: "esm" | "cjs"): Record<string, string> | undefined {
  const type = packageType(path.resolve(outdir));
  if (format === "esm" && type === "commonjs") return { ".js": ".mjs" };
  if (format === "cjs" && type === "module") return { ".js": ".cjs" };
  return undefined;
}

function packageType(dir: string): string | undefined {
  for (; ; dir = path.dirname(dir)) {
    const manifest = readPackageJson(path.join(dir, "package.json"));
    if (manifest) return typeof manifest.type === "string" ? manifest.type : undefined;
    if (path.dirname(dir) === dir) return undefined;
  }
}
