// Reads the tsconfig.json options rt honours: JSX settings, decorators and class-field
// semantics (handed to esbuild), and `paths`/`baseUrl` (used by the resolver). Follows `extends`
// (one that cannot be found is reported in one line and skipped, as tsx and bun go on) and
// expands `${configDir}`. TsconfigLocator finds the tsconfig that applies to a file.
import { lstatSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { ProgramError, UsageError } from "../errors.js";
import { cannotRead, jsonValueError, parseJsonc, readProjectFile } from "../data-files.js";
import { displayPath } from "../text.js";

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
  // lstat: a symbolic link loop is there (and reported when read), not missing.
  if (!lstatSync(file, { throwIfNoEntry: false })) {
    if (override) throw new UsageError(`--tsconfig-override: no such file: ${file}`);
    return { compilerOptions: {} };
  }
  return readTsconfig(file);
}

/**
 * The tsconfig.json that applies to each file, as bun (and tsc) choose it: the nearest one up
 * from the file's directory, not above the package of a file inside node_modules; the
 * default (--tsconfig-override, else $cwd/tsconfig.json) where there is none.
 * With --tsconfig-override, that file applies to every file.
 */
export class TsconfigLocator {
  private readonly byDirectory = new Map<string, Tsconfig>();
  private readonly byFile = new Map<string, Tsconfig>();

  constructor(
    readonly fallback: Tsconfig,
    private readonly overridden: boolean,
    /** Told of each tsconfig.json read (--watch restarts when one changes). */
    private readonly onRead: (file: string) => void = () => {},
  ) {
    if (fallback.file) this.byFile.set(fallback.file, fallback);
  }

  forDirectory(dir: string): Tsconfig {
    if (this.overridden) return this.fallback;
    const known = this.byDirectory.get(dir);
    if (known) return known;
    let found: Tsconfig;
    const candidate = path.join(dir, "tsconfig.json");
    const parent = path.dirname(dir);
    if (isThere(candidate)) {
      let known = this.byFile.get(candidate);
      if (!known) {
        this.onRead(candidate);
        this.byFile.set(candidate, (known = readTsconfig(candidate)));
      }
      found = known;
    } else if (parent === dir || path.basename(dir) === "node_modules") found = this.fallback;
    else found = this.forDirectory(parent);
    this.byDirectory.set(dir, found);
    return found;
  }
}

function readTsconfig(file: string): Tsconfig {
  // `${configDir}` is the directory of the tsconfig being read, wherever in the chain it is written.
  const configDir = path.dirname(file);
  const expand = (value: string) => value.replaceAll("${configDir}", () => configDir);
  const merged: Record<string, unknown> = {};
  let paths: Record<string, string[]> | undefined;
  let pathsDir: string | undefined;
  let baseUrl: string | undefined;
  // Parents first, so each child's options override its parents'.
  for (const { file: configFile, options } of extendsChain(file, new Set())) {
    const dir = path.dirname(configFile);
    for (const key of TRANSPILE_OPTIONS) if (key in options) merged[key] = options[key];
    if (typeof options.baseUrl === "string") baseUrl = path.resolve(dir, expand(options.baseUrl));
    if (options.paths && typeof options.paths === "object") {
      paths = Object.fromEntries(
        Object.entries(options.paths as Record<string, unknown>).map(([pattern, targets]) => [
          pattern,
          Array.isArray(targets) ? targets.filter((target) => typeof target === "string").map(expand) : [],
        ]),
      );
      pathsDir = dir;
    }
  }
  const resolvedPaths: TsconfigPaths | undefined = paths || baseUrl ? { base: baseUrl ?? pathsDir!, paths: paths ?? {}, baseUrl } : undefined;
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
    if (typeof parent !== "string") continue;
    const parentFile = resolveExtends(parent, file);
    if (parentFile) chain.push(...extendsChain(parentFile, seen));
    else process.stderr.write(`rt: warning: ${displayPath(file)}: "extends": cannot find tsconfig "${parent}"; going on without it\n`);
  }
  const options = config.compilerOptions;
  chain.push({ file, options: options && typeof options === "object" ? (options as Record<string, unknown>) : {} });
  return chain;
}

/** The file an `extends` names (a path, or a package's tsconfig), or undefined when there is none. */
function resolveExtends(specifier: string, from: string): string | undefined {
  const dir = path.dirname(from);
  if (specifier.startsWith(".") || path.isAbsolute(specifier)) {
    const candidate = path.resolve(dir, specifier);
    for (const file of [candidate, `${candidate}.json`]) if (isThere(file)) return file;
    return undefined;
  }
  const require = createRequire(from);
  for (const request of [specifier, `${specifier}.json`, `${specifier}/tsconfig.json`]) {
    try {
      return require.resolve(request);
    } catch {
      // try the next form
    }
  }
  return undefined;
}

/** A file to read, or something there that cannot be read (a symbolic link loop): reported when read. */
function isThere(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return true;
  }
}

/** Parses a JSON-with-comments file; a syntax error or a wrongly typed option is reported as file:line:column. */
export function readJsonc(file: string): Record<string, unknown> {
  const text = readProjectFile(file, cannotRead(file, "ERR_TSCONFIG")) ?? "{}";
  const value = parseJsonc(file, text, "ERR_TSCONFIG");
  const config = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const wrong = wrongType(config);
  if (wrong) throw jsonValueError(file, text, wrong.at, `${wrong.at.join(".")} must be ${wrong.expected}`, "ERR_TSCONFIG");
  return config;
}

const STRING_OPTIONS = ["jsx", "jsxFactory", "jsxFragmentFactory", "jsxImportSource", "baseUrl", "target", "importsNotUsedAsValues"];
const BOOLEAN_OPTIONS = ["experimentalDecorators", "useDefineForClassFields", "verbatimModuleSyntax", "preserveValueImports", "alwaysStrict", "strict"];

/** The first option rt reads whose value has the wrong type (tsc refuses those too). */
function wrongType(config: Record<string, unknown>): { at: (string | number)[]; expected: string } | undefined {
  const isStrings = (value: unknown) => typeof value === "string" || (Array.isArray(value) && value.every((item) => typeof item === "string"));
  if (config.extends !== undefined && !isStrings(config.extends)) return { at: ["extends"], expected: "a string or an array of strings" };
  const options = config.compilerOptions;
  if (options === undefined) return undefined;
  if (!options || typeof options !== "object" || Array.isArray(options)) return { at: ["compilerOptions"], expected: "an object" };
  const entries = options as Record<string, unknown>;
  for (const key of STRING_OPTIONS) if (key in entries && typeof entries[key] !== "string") return { at: ["compilerOptions", key], expected: "a string" };
  for (const key of BOOLEAN_OPTIONS)
    if (key in entries && typeof entries[key] !== "boolean") return { at: ["compilerOptions", key], expected: "true or false" };
  const paths = entries.paths;
  if (paths === undefined) return undefined;
  if (!paths || typeof paths !== "object" || Array.isArray(paths)) return { at: ["compilerOptions", "paths"], expected: "an object of arrays of strings" };
  for (const [pattern, targets] of Object.entries(paths)) {
    if (!Array.isArray(targets) || !isStrings(targets)) return { at: ["compilerOptions", "paths", pattern], expected: "an array of strings" };
  }
  return undefined;
}
