// Source → JavaScript through esbuild, behind the content-addressed cache. esbuild is only
// loaded on a cache miss: a warm start never pays for it.
import * as path from "node:path";
import type { Message, TransformOptions, TransformResult } from "esbuild";
import { ProgramError } from "../errors.js";
import type { ScriptLoader } from "../flags/table.js";
import { codeFrame, displayPath } from "../text.js";
import type { CachedModule, ModuleFormat, TranspileCache } from "./cache.js";
import { INLINE_MAP } from "../diagnostics/source-maps.js";
import { hasDecorators, lowerDecorators, type DecoratorMetadataOptions } from "./decorator-metadata.js";
import { hashBytes } from "./hash.js";
import type { TranspileSettings } from "./options.js";

declare const RT_VERSION: string;
declare const ESBUILD_VERSION: string;

/** Sources from this size on (a map several times that) keep their map beside the cache entry; smaller ones inline it. */
const MAP_BESIDE_FROM_BYTES = 32 * 1024;

export interface TranspileRequest {
  /** Absolute path (or virtual path such as `<cwd>/[eval]`), used for messages and the source map. */
  readonly file: string;
  readonly source: Uint8Array;
  readonly loader: ScriptLoader;
  /** Extra defines for this file only (e.g. `import.meta.main` for the entry). */
  readonly define?: Readonly<Record<string, string>>;
  /** The file's macro calls: `expand` runs them and returns the file with their results in place. */
  readonly macros?: { expand(): string };
  /**
   * Compile import/export to require/exports (TypeScript in a `"type": "commonjs"` package, as
   * tsc does) unless the code needs an ES module: top-level await or import.meta.
   */
  readonly preferCommonJs?: boolean;
}

/** The transpiled code and the module format its syntax implies (import/export/top-level await → module). */
export function transpile(request: TranspileRequest, settings: TranspileSettings, cache: TranspileCache | undefined): CachedModule {
  // A file with macros is expanded at every run, as bun does: a macro may read anything (the
  // environment, files, the clock), so its results are never reused. What esbuild makes of the
  // expanded text is: the key covers that text and the file as written (the source map's).
  const expanded = request.macros && Buffer.from(request.macros.expand());
  const source = expanded ?? request.source;
  // A large file's map goes beside its cache entry (TranspileCache.set), naming the file by its
  // path: its entry is then that path's alone (others are shared by files of the same name and text).
  const mapBeside = cache !== undefined && source.length >= MAP_BESIDE_FROM_BYTES && path.isAbsolute(request.file);
  const seed = [
    RT_VERSION,
    ESBUILD_VERSION,
    settings.fingerprint,
    request.loader,
    path.basename(request.file),
    JSON.stringify(request.define ?? {}),
    expanded && cache ? hashBytes(request.source, "") : "",
    request.preferCommonJs ? "cjs" : "",
    mapBeside ? path.dirname(request.file) : "",
  ];
  // path.basename is in the key, so the per-extension output format below is covered too.
  const key = cache ? hashBytes(source, seed.join("\0")) : "";
  const hit = cache?.get(key);
  if (hit) return hit;
  const lowered = settings.decoratorMetadata && decoratorsLowered(request, Buffer.from(source).toString("utf8"), settings.decoratorMetadata);
  const compiled = runEsbuild(
    { ...request, source: lowered ? Buffer.from(lowered.code) : source, loader: lowered?.loader ?? request.loader },
    settings.esbuild,
  );
  const code = request.macros || lowered ? withOriginalSource(compiled, request.source) : compiled;
  const entry: CachedModule = { format: syntaxFormat(code), code };
  return cache?.set(key, entry, mapBeside ? request.file : undefined) ?? entry;
}

function decoratorsLowered(request: TranspileRequest, source: string, options: DecoratorMetadataOptions) {
  return hasDecorators(source, request.loader) ? lowerDecorators(request.file, source, request.loader, options) : undefined;
}

function runEsbuild(request: TranspileRequest, base: Readonly<TransformOptions>): string {
  try {
    // A .cts file's import/export compile to require/exports, as tsc compiles them.
    if (CommonJsExtensions.has(path.extname(request.file))) return transform(request, base, "cjs").code;
    if (request.preferCommonJs) {
      try {
        const result = transform(request, base, "cjs");
        if (!result.warnings.some(needsModule)) return result.code;
      } catch (error) {
        if (!(error as { errors?: Message[] }).errors?.some(needsModule)) throw error;
      }
    }
    return transform(request, base, undefined).code;
  } catch (error) {
    const first = (error as { errors?: Message[] }).errors?.[0];
    if (!first) throw error;
    const display = formatEsbuildMessage(request.file, first);
    throw new ProgramError(display.split("\n")[0]!, "ERR_TRANSPILE", display);
  }
}

function transform(request: TranspileRequest, base: Readonly<TransformOptions>, format: "cjs" | undefined): TransformResult {
  return esbuild().transformSync(request.source, {
    ...base,
    loader: request.loader,
    sourcefile: path.basename(request.file),
    format,
    define: request.define ? { ...base.define, ...request.define } : base.define,
  });
}

// esbuild's error for top-level await and its warning for import.meta in CommonJS output.
const needsModule = (message: Message) => message.text.includes('with the "cjs" output format');

const CommonJsExtensions = new Set([".cts", ".cjs"]);

/** The inline map of expanded macros carries the file as written, for previews of its lines. */
function withOriginalSource(code: string, original: Uint8Array): string {
  const at = code.lastIndexOf(INLINE_MAP);
  if (at === -1) return code;
  const map = JSON.parse(Buffer.from(code.slice(at + INLINE_MAP.length), "base64").toString("utf8")) as { sourcesContent?: string[] };
  map.sourcesContent = [Buffer.from(original).toString("utf8")];
  return `${code.slice(0, at + INLINE_MAP.length)}${Buffer.from(JSON.stringify(map)).toString("base64")}\n`;
}

function formatEsbuildMessage(file: string, message: Message): string {
  const location = message.location;
  if (!location) return `${displayPath(file)}: error: ${message.text}\n`;
  const column = location.column + 1;
  return codeFrame(`${displayPath(file)}:${location.line}:${column}`, `error: ${message.text}`, location.lineText, column);
}

// Node's module-syntax detection rule: code that fails to compile as CommonJS only because of
// ESM syntax (import/export, import.meta) or top-level await is a module.
const ESM_ONLY_ERRORS = [
  "Cannot use import statement outside a module",
  "Unexpected token 'export'",
  "Cannot use 'import.meta' outside a module",
  "await is only valid in async functions and the top level bodies of modules",
];
const isEsmOnlyError = (error: unknown) => ESM_ONLY_ERRORS.some((text) => (error as Error).message.includes(text));

export function syntaxFormat(code: string): ModuleFormat {
  const vm = require("node:vm") as typeof import("node:vm");
  try {
    vm.compileFunction(code, ["exports", "require", "module", "__filename", "__dirname"]);
    return "commonjs";
  } catch (error) {
    if (isEsmOnlyError(error)) return "module";
  }
  // V8 names a top-level await inside an expression differently ("missing ) after argument
  // list"...): as the body of an async function such code compiles, or fails on ESM syntax.
  try {
    new vm.Script(`(async function () {\n${code}\n})`);
    return "module";
  } catch (error) {
    // Otherwise a real syntax error, which Node reports when it loads the module.
    return isEsmOnlyError(error) ? "module" : "commonjs";
  }
}

// esbuild's worker-thread service costs ~50–75 ms to start but ~1 ms a call; a spawned esbuild
// process costs ~10 ms a call. Small programs miss the cache for a handful of files, so the
// first calls spawn and only a larger miss streak starts the service.
const SPAWNED_CALLS = 4;
let calls = 0;
let spawning: typeof import("esbuild") | undefined;
let service: typeof import("esbuild") | undefined;

function esbuild(): typeof import("esbuild") {
  calls++;
  if (calls <= SPAWNED_CALLS) {
    if (!spawning) {
      const saved = process.env.ESBUILD_WORKER_THREADS;
      process.env.ESBUILD_WORKER_THREADS = "0";
      try {
        spawning = require("esbuild") as typeof import("esbuild");
      } finally {
        if (saved === undefined) delete process.env.ESBUILD_WORKER_THREADS;
        else process.env.ESBUILD_WORKER_THREADS = saved;
      }
    }
    return spawning;
  }
  if (!service) {
    // A second instance of the package, evaluated without the variable, uses the worker service.
    delete require.cache[require.resolve("esbuild")];
    service = require("esbuild") as typeof import("esbuild");
  }
  return service;
}
