// How ES modules see a CommonJS module: with bun's names and Node's evaluation order. Node finds
// a CommonJS module's named exports by lexing its source, which misses every export assigned in
// a way the lexer cannot follow (lodash, UMD bundles...), and makes a default import the whole
// `module.exports` even for compiled ESM (`__esModule` + `exports.default`). Here a CommonJS
// module imported from ESM gets an ES module facade (at its own URL) that require()s it when the
// facade is EVALUATED, in source order, after the importer's earlier imports (the
// `import "dotenv/config"` pattern). Its export names must be fixed before that, when the facade
// loads: the names cjs-module-lexer sees (following reexports, as Node does) plus every name its
// importers so far ask for (a name asked for that the module does not have fails there, as
// Node's link error would). Where the names cannot be known without running it, namely a
// namespace import or `export *` or a clause rt cannot read, the module is require()d when the
// facade loads and the facade has every key of its real `module.exports` (bun's order: it runs
// while its importer is linked, before the bodies of the importer's ES module imports).
//
// Either way it runs once (the facade reads the require cache entry, and later require()s share
// it), and an error it throws rejects the import with that error.
//
// What the lexer finds in a source is cached beside the transpiled modules, under a key of the
// source's bytes: a warm start reads and hashes the files (~1 ms for rxjs's 35 KB index) but
// neither compiles the lexer's WebAssembly nor lexes (~7 ms). A key of path, size and mtime
// would spare the read, but npm gives every file it unpacks the same mtime (1985-10-26): an
// upgrade that keeps a file's size would be served the old version's names.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
// The WebAssembly build Node itself uses (its "import" export), made ready synchronously on first use.
import { initSync, parse as lexCommonJs } from "cjs-module-lexer";
import type { LexedCommonJs, TranspileCache } from "../transpile/cache.js";
import { hashBytes } from "../transpile/hash.js";

declare const CJS_LEXER_VERSION: string;

/** The facade's way back to the exports: one accessor on globalThis, under a registered symbol. */
const ACCESSOR = Symbol.for("rt.commonjsExports");

/** What the importers of a CommonJS module ask of it: names, or everything (`*`). */
export type Asked = ReadonlySet<string> | "all";

export class CommonJsInterop {
  /** `module.exports` of each module required at load, whose facade has not been evaluated yet, by URL. */
  private readonly exportsByUrl = new Map<string, unknown>();
  /** The file each deferred facade require()s when it is evaluated, by URL. */
  private readonly deferredFiles = new Map<string, string>();
  /** The names each deferred facade exports, by URL (for importers that come later). */
  private readonly namesByUrl = new Map<string, ReadonlySet<string>>();
  /** The URLs of the facades built from the keys of a module required at load. */
  private readonly eagerUrls = new Set<string>();
  private require: NodeJS.Require | undefined;

  constructor(private readonly cache: TranspileCache | undefined) {
    const take = (url: string): unknown => {
      const file = this.deferredFiles.get(url);
      if (file !== undefined) {
        this.deferredFiles.delete(url);
        return this.requireFile(file);
      }
      const exports = this.exportsByUrl.get(url);
      this.exportsByUrl.delete(url);
      return exports;
    };
    Object.defineProperty(globalThis, ACCESSOR, { value: take, enumerable: false, writable: false, configurable: false });
  }

  /**
   * The source of the ES module that stands for `file` at `url`, which importers ask `asked`
   * of; `code` is the JavaScript that runs (transpiled if it was). Undefined when the module
   * had to run now and cannot yet (see REQUIRED_TOO_EARLY): then Node's way must do.
   */
  facade(file: string, url: string, code: string | undefined, asked: Asked): string | undefined {
    if (asked !== "all") {
      const lexed = this.lexedNames(file, code);
      if (lexed) {
        const names = new Set([...lexed, ...asked].filter(isExportName));
        this.deferredFiles.set(url, file);
        this.namesByUrl.set(url, names);
        return facadeSource(
          url,
          names,
          [...asked].filter((name) => isExportName(name) && !lexed.has(name)),
        );
      }
    }
    const exports = this.requireNow(file);
    if (exports === TOO_EARLY) return undefined;
    this.exportsByUrl.set(url, exports);
    this.eagerUrls.add(url);
    const isObject = (typeof exports === "object" && exports !== null) || typeof exports === "function";
    return facadeSource(url, isObject ? Object.keys(exports).filter(isExportName) : [], []);
  }

  hasFacade(url: string): boolean {
    return this.namesByUrl.has(url) || this.eagerUrls.has(url);
  }

  /** False when `url` has a deferred facade that lacks a name its importer asks for: it cannot serve that importer. */
  serves(url: string, askedBy: () => Asked): boolean {
    const names = this.namesByUrl.get(url);
    if (!names) return true;
    const asked = askedBy();
    return asked !== "all" && [...asked].every((name) => !isExportName(name) || names.has(name));
  }

  /** The names cjs-module-lexer finds in `file` and the files it reexports; undefined if it cannot read one. */
  private lexedNames(file: string, code: string | undefined): Set<string> | undefined {
    const names = new Set<string>();
    const seen = new Set<string>();
    const visit = (target: string, source: string | undefined): boolean => {
      if (seen.has(target)) return true;
      seen.add(target);
      const ext = path.extname(target);
      if (source === undefined && ext !== ".js" && ext !== ".cjs") return false;
      const lexed = this.lex(target, source);
      if (!lexed) return false;
      for (const name of lexed.exports) names.add(name);
      const from = createRequire(target);
      return lexed.reexports.every((specifier) => {
        try {
          return visit(from.resolve(specifier), undefined);
        } catch {
          return false;
        }
      });
    };
    return visit(file, code) ? names : undefined;
  }

  /** What the lexer finds in `source` (else in the file), through the cache; null if it cannot read or lex it. */
  private lex(file: string, source: string | undefined): LexedCommonJs | null {
    let bytes: Buffer;
    try {
      bytes = source === undefined ? readFileSync(file) : Buffer.from(source);
    } catch {
      return null;
    }
    const key = this.cache ? hashBytes(bytes, `cjs-module-lexer\0${CJS_LEXER_VERSION}`) : "";
    const cached = this.cache?.getLexed(key);
    if (cached !== undefined) return cached;
    if (!lexerReady) {
      initSync();
      lexerReady = true;
    }
    let lexed: LexedCommonJs | null;
    try {
      lexed = lexCommonJs(source ?? bytes.toString("utf8"));
    } catch {
      lexed = null;
    }
    this.cache?.setLexed(key, lexed);
    return lexed;
  }

  private requireNow(file: string): unknown {
    try {
      return this.requireFile(file);
    } catch (error) {
      if (REQUIRED_TOO_EARLY.has((error as { code?: string }).code ?? "")) return TOO_EARLY;
      throw error;
    }
  }

  private requireFile(file: string): unknown {
    // An absolute path needs no parent to resolve from: one require function serves every file.
    return (this.require ??= createRequire(file))(file);
  }
}

/**
 * The facade: its body takes the exports (requiring the module if it has not run) and exports
 * `names`; `checked` are names asked for that the lexer did not see, which must be there.
 */
function facadeSource(url: string, names: Iterable<string>, checked: readonly string[]): string {
  const keys = [...names];
  const lines = [
    `const m = globalThis[Symbol.for("rt.commonjsExports")](${JSON.stringify(url)});`,
    // Compiled ESM marks itself with `__esModule`: its default export is `exports.default` (bun, tsx).
    'const object = (typeof m === "object" && m !== null) || typeof m === "function";',
    'export default object && m.__esModule && Object.hasOwn(m, "default") ? m.default : m;',
  ];
  if (checked.length) {
    lines.push(
      `for (const key of ${JSON.stringify(checked)}) if (!object || !(key in m)) throw new SyntaxError(\`The requested module '\${${JSON.stringify(url)}}' does not provide an export named '\${key}'\`);`,
    );
  }
  lines.push(
    // A getter that throws leaves its name undefined, as in Node, instead of failing the import.
    "const get = (key) => { try { return m[key]; } catch {} };",
    ...keys.map((key, i) => `const e${i} = get(${JSON.stringify(key)});`),
    `export { ${[...keys.map((key, i) => `e${i} as ${JSON.stringify(key)}`), 'm as "module.exports"'].join(", ")} };`,
  );
  return lines.join("\n");
}

// The module require()s an ES module that the importing graph is still loading (Node cannot
// require a module it has not finished loading): it runs at its place in evaluation order
// instead, with the names Node's lexer finds. Its statements before that require() have run
// once already, and run again then.
const REQUIRED_TOO_EARLY = new Set(["ERR_REQUIRE_ESM_RACE_CONDITION", "ERR_REQUIRE_CYCLE_MODULE"]);
const TOO_EARLY = Symbol("required too early");
let lexerReady = false;

// "default" is the default export above, "module.exports" Node's name for the whole object; an
// export name must be well-formed Unicode. (The pattern is made on first use: the bundle puts it
// in a RegExp constructor, and its Unicode class costs ~2M instructions at every start.)
let loneSurrogate: RegExp | undefined;

function isExportName(key: string): boolean {
  return key !== "default" && key !== "module.exports" && !(loneSurrogate ??= /\p{Cs}/u).test(key);
}
