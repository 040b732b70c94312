// The one mapping from rt's transpilation flags (and tsconfig.json) to esbuild options,
// shared by the runtime loader and `rt build`.
import * as path from "node:path";
import type { TransformOptions } from "esbuild";
import { LOADERS, flagDefault, type LoaderName } from "../flags/table.js";
import type { FlagValues } from "../flags/parse.js";
import { UsageError } from "../errors.js";
import { decoratorMetadataOptions, type DecoratorMetadataOptions } from "./decorator-metadata.js";
import type { Tsconfig, TsconfigLocator } from "./tsconfig.js";

// TypeScript's version changes the output of files it lowers (emitDecoratorMetadata).
declare const TYPESCRIPT_VERSION: string;

export interface TranspileSettings {
  /** esbuild options common to every file (no loader, no file name). */
  readonly esbuild: Readonly<TransformOptions>;
  /** Extension (with dot) → loader, defaults merged with `--loader`. */
  readonly loaders: Readonly<Record<string, LoaderName>>;
  /** True when plain JavaScript must go through esbuild too (a define or drop applies to it). */
  readonly transformsJavaScript: boolean;
  /** False under --no-macros: a macro import is an error. */
  readonly macros: boolean;
  /** With tsconfig's emitDecoratorMetadata: how TypeScript lowers files with decorators first. */
  readonly decoratorMetadata: DecoratorMetadataOptions | undefined;
  /** Identifies every option that changes the output: part of the cache key. */
  readonly fingerprint: string;
}

/** How imports resolve, for the runtime's resolver and the bundler alike. */
export interface ResolutionSettings {
  readonly extensions: readonly string[];
  /** undefined: the resolver's default (`main`). */
  readonly mainFields: readonly string[] | undefined;
  readonly preserveSymlinks: boolean;
  readonly conditions: readonly string[];
}

export function resolutionSettings(values: FlagValues): ResolutionSettings {
  return {
    extensions: commaList(values["extension-order"] ?? flagDefault("extension-order")),
    mainFields: values["main-fields"] === undefined ? undefined : commaList(values["main-fields"]),
    preserveSymlinks: values["preserve-symlinks"] === true,
    conditions: (values.conditions ?? []).flatMap(commaList),
  };
}

function commaList(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

export const DEFAULT_LOADERS: Readonly<Record<string, LoaderName>> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".jsx": "jsx",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".json": "json",
  ".toml": "toml",
  ".txt": "text",
};

const DROPPABLE = ["console", "debugger"] as const;

export function transpileSettings(values: FlagValues, tsconfig: Tsconfig, nodeEnv: string | undefined): TranspileSettings {
  const compilerOptions = tsconfig.compilerOptions;
  const tsJsx = compilerOptions.jsx;
  // A factory without a `jsx` mode means the classic runtime, as esbuild (and so tsx) reads it.
  const classic = tsJsx === "react" || (tsJsx === undefined && (str(compilerOptions.jsxFactory) ?? str(compilerOptions.jsxFragmentFactory)) !== undefined);
  const runtime = values["jsx-runtime"] ?? (classic ? "classic" : "automatic");
  const define = parseDefines(values.define ?? []);
  const drop = parseDrops(values.drop ?? []);
  const esbuild: TransformOptions = {
    target: `node${process.versions.node.split(".")[0]}`,
    platform: "node",
    sourcemap: "inline",
    sourcesContent: true,
    define,
    drop,
    jsx: runtime === "classic" ? "transform" : "automatic",
    jsxDev: runtime !== "classic" && (tsJsx === "react-jsxdev" || (tsJsx !== "react-jsx" && nodeEnv !== "production")),
    jsxFactory: str(values["jsx-factory"]) ?? str(compilerOptions.jsxFactory),
    jsxFragment: str(values["jsx-fragment"]) ?? str(compilerOptions.jsxFragmentFactory),
    jsxImportSource: str(values["jsx-import-source"]) ?? str(compilerOptions.jsxImportSource) ?? flagDefault("jsx-import-source"),
    jsxSideEffects: values["jsx-side-effects"] === true,
    ignoreAnnotations: values["ignore-dce-annotations"] === true,
    tsconfigRaw: { compilerOptions: stripJsx(compilerOptions) },
  };
  const loaders = { ...DEFAULT_LOADERS, ...parseLoaders(values.loader ?? []) };
  const macros = values["no-macros"] !== true;
  const decoratorMetadata = decoratorMetadataOptions(compilerOptions);
  return {
    esbuild,
    loaders,
    transformsJavaScript: Object.keys(define).length > 0 || drop.length > 0,
    macros,
    decoratorMetadata,
    fingerprint: JSON.stringify([esbuild, loaders, macros, decoratorMetadata && TYPESCRIPT_VERSION]),
  };
}

/** Each file compiles with the options of the tsconfig nearest to it (settings made once per tsconfig). */
export function settingsByTsconfig(values: FlagValues, tsconfigs: TsconfigLocator, nodeEnv: string | undefined, fallback: TranspileSettings) {
  const made = new Map<Tsconfig, TranspileSettings>([[tsconfigs.fallback, fallback]]);
  return (file: string): TranspileSettings => {
    const tsconfig = tsconfigs.forDirectory(path.dirname(file));
    let settings = made.get(tsconfig);
    if (!settings) made.set(tsconfig, (settings = transpileSettings(values, tsconfig, nodeEnv)));
    return settings;
  };
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

// The JSX mode comes from rt's own jsx options above, which already folded tsconfig's in.
function stripJsx(options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { jsx: _jsx, jsxFactory: _f, jsxFragmentFactory: _ff, jsxImportSource: _s, ...rest } = options;
  return rest;
}

function parseDefines(entries: readonly string[]): Record<string, string> {
  const define: Record<string, string> = {};
  for (const entry of entries) {
    const colon = entry.indexOf(":");
    if (colon <= 0) throw new UsageError(`invalid --define "${entry}": expected KEY:VALUE, e.g. --define process.env.MODE:'"prod"'`);
    const key = entry.slice(0, colon);
    const raw = entry.slice(colon + 1);
    if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(key)) {
      throw new UsageError(`invalid --define key "${key}": expected an identifier or a dotted name like process.env.MODE`);
    }
    try {
      define[key] = JSON.stringify(JSON.parse(raw));
    } catch {
      throw new UsageError(`invalid --define value for ${key}: ${JSON.stringify(raw)} is not JSON (a string needs its own quotes: ${key}:'"${raw}"')`);
    }
  }
  return define;
}

function parseDrops(entries: readonly string[]): ("console" | "debugger")[] {
  return entries
    .flatMap((entry) => entry.split(","))
    .map((name) => {
      if (!(DROPPABLE as readonly string[]).includes(name)) {
        throw new UsageError(`invalid value "${name}" for --drop; valid values: ${DROPPABLE.join(", ")}`);
      }
      return name as "console" | "debugger";
    });
}

function parseLoaders(entries: readonly string[]): Record<string, LoaderName> {
  const loaders: Record<string, LoaderName> = {};
  for (const entry of entries) {
    const colon = entry.lastIndexOf(":");
    const ext = entry.slice(0, colon);
    const loader = entry.slice(colon + 1);
    if (colon <= 0 || !/^\.[\w.-]+$/.test(ext)) {
      throw new UsageError(`invalid --loader "${entry}": expected .ext:loader, e.g. --loader .js:jsx`);
    }
    if (!(LOADERS as readonly string[]).includes(loader)) {
      throw new UsageError(`invalid loader "${loader}" in --loader ${entry}; valid loaders: ${LOADERS.join(", ")}`);
    }
    loaders[ext] = loader as LoaderName;
  }
  return loaders;
}
