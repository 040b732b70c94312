// Reads the tsconfig.json options rt honours: JSX settings, decorators and class-field
// semantics (handed to esbuild), and `paths`/`baseUrl` (used by the resolver). Follows `extends`.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { ProgramError, UsageError } from "../errors.js";
import { parseJsonc } from "../data-files.js";

/** The compilerOptions esbuild's transform understands (its `tsconfigRaw`). */
const TRANSPILE_OPTIONS = [
  "jsx",
  "jsxFactory",
  "jsxFragmentFactory",
  "jsxImportSource",
  "experimentalDecorators",
  "emitDecoratorMetadata",
  "useDefineForClassFields",
  "verbatimModuleSyntax",
  "preserveValueImports",
  "importsNotUsedAsValues",
  "target",
  "alwaysStrict",
  "strict",
] as const;

export interface TsconfigPaths {
  /** Directory that `paths` targets are relative to. */
  readonly base: string;
  readonly paths: Readonly<Record<string, readonly string[]>>;
  /** When set, bare specifiers are also tried relative to this directory. */
  readonly baseUrl?: string;
}

export interface Tsconfig {
  readonly file?: string;
  readonly compilerOptions: Readonly<Record<string, unknown>>;
  readonly paths?: TsconfigPaths;
}

export function loadTsconfig(cwd: string, override: string | undefined): Tsconfig {
  const file = override ? path.resolve(cwd, override) : path.join(cwd, "tsconfig.json");
  if (!existsSync(file)) {
    if (override) throw new UsageError(`--tsconfig-override: no such file: ${file}`);
    return { compilerOptions: {} };
  }
  const merged: Record<string, unknown> = {};
  let paths: Record<string, string[]> | undefined;
  let pathsDir: string | undefined;
  let baseUrl: string | undefined;
  // Parents first, so each child's options override its parents'.
  for (const { file: configFile, options } of extendsChain(file, new Set())) {
    const dir = path.dirname(configFile);
    for (const key of TRANSPILE_OPTIONS) if (key in options) merged[key] = options[key];
    if (typeof options.baseUrl === "string") baseUrl = path.resolve(dir, options.baseUrl);
    if (options.paths && typeof options.paths === "object") {
      paths = options.paths as Record<string, string[]>;
      pathsDir = dir;
    }
  }
  const resolvedPaths: TsconfigPaths | undefined =
    paths || baseUrl ? { base: baseUrl ?? pathsDir!, paths: paths ?? {}, baseUrl } : undefined;
  return { file, compilerOptions: merged, paths: resolvedPaths };
}

interface ConfigLink {
  file: string;
  options: Record<string, unknown>;
}

function extendsChain(file: string, seen: Set<string>): ConfigLink[] {
  if (seen.has(file)) throw new ProgramError(`tsconfig "extends" loops back to ${file}`, "ERR_TSCONFIG");
  seen.add(file);
  const config = readJsonc(file);
  const parents = config.extends === undefined ? [] : Array.isArray(config.extends) ? config.extends : [config.extends];
  const chain: ConfigLink[] = [];
  for (const parent of parents) {
    if (typeof parent === "string") chain.push(...extendsChain(resolveExtends(parent, file), seen));
  }
  const options = config.compilerOptions;
  chain.push({ file, options: options && typeof options === "object" ? (options as Record<string, unknown>) : {} });
  return chain;
}

function resolveExtends(specifier: string, from: string): string {
  const dir = path.dirname(from);
  if (specifier.startsWith(".") || path.isAbsolute(specifier)) {
    const candidate = path.resolve(dir, specifier);
    return existsSync(candidate) || candidate.endsWith(".json") ? candidate : `${candidate}.json`;
  }
  const require = createRequire(from);
  for (const request of [specifier, `${specifier}.json`, `${specifier}/tsconfig.json`]) {
    try {
      return require.resolve(request);
    } catch {
      // try the next form
    }
  }
  throw new ProgramError(`Cannot find tsconfig "${specifier}" extended from ${from}`, "ERR_TSCONFIG");
}

/** Parses a JSON-with-comments file; a syntax error is reported as file:line:column. */
export function readJsonc(file: string): Record<string, unknown> {
  const value = parseJsonc(file, readFileSync(file, "utf8"), "ERR_TSCONFIG");
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
