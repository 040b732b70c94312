// How ES modules see a CommonJS module: as bun does, not by Node's lexer. Node finds a CommonJS
// module's named exports by lexing its source, which misses every export assigned in a way the
// lexer cannot follow (lodash, UMD bundles...), and makes a default import the whole
// `module.exports` even for compiled ESM (`__esModule` + `exports.default`). Here a CommonJS
// module imported from ESM is require()d when the importer loads (in-thread, so synchronously),
// and its URL is given an ES module facade built from the keys of its real `module.exports`.
//
// Consequences, as in bun: the CommonJS module runs while its importer is linked, before the
// bodies of the importer's ES module imports; it runs once (the facade reads the require cache
// entry, and later require()s share it); an error it throws rejects the import there.
import { createRequire } from "node:module";

/** The facade's way back to the exports: one accessor on globalThis, under a registered symbol. */
const ACCESSOR = Symbol.for("rt.commonjsExports");

export class CommonJsInterop {
  /** `module.exports` of each required module whose facade has not been evaluated yet, by URL. */
  private readonly exportsByUrl = new Map<string, unknown>();
  private require: NodeJS.Require | undefined;

  constructor() {
    const take = (url: string): unknown => {
      const exports = this.exportsByUrl.get(url);
      this.exportsByUrl.delete(url);
      return exports;
    };
    Object.defineProperty(globalThis, ACCESSOR, { value: take, enumerable: false, writable: false, configurable: false });
  }

  /**
   * Requires `file` now and returns the source of the ES module that stands for it at `url`;
   * undefined when it cannot run yet (see REQUIRED_TOO_EARLY): then Node's way must do.
   */
  facade(file: string, url: string): string | undefined {
    const exports = this.requireNow(file);
    if (exports === TOO_EARLY) return undefined;
    this.exportsByUrl.set(url, exports);
    const isObject = (typeof exports === "object" && exports !== null) || typeof exports === "function";
    const keys = isObject ? Object.keys(exports).filter(isExportName) : [];
    // Compiled ESM marks itself with `__esModule`: its default export is `exports.default` (bun, tsx).
    const compiledDefault = isObject && (exports as { __esModule?: unknown }).__esModule && Object.hasOwn(exports, "default");
    const lines = [
      `const m = globalThis[Symbol.for("rt.commonjsExports")](${JSON.stringify(url)});`,
      `export default ${compiledDefault ? "m.default" : "m"};`,
      // A getter that throws leaves its name undefined, as in Node, instead of failing the import.
      "const get = (key) => { try { return m[key]; } catch {} };",
      ...keys.map((key, i) => `const e${i} = get(${JSON.stringify(key)});`),
      `export { ${[...keys.map((key, i) => `e${i} as ${JSON.stringify(key)}`), 'm as "module.exports"'].join(", ")} };`,
    ];
    return lines.join("\n");
  }

  private requireNow(file: string): unknown {
    try {
      // An absolute path needs no parent to resolve from: one require function serves every file.
      return (this.require ??= createRequire(file))(file);
    } catch (error) {
      if (REQUIRED_TOO_EARLY.has((error as { code?: string }).code ?? "")) return TOO_EARLY;
      throw error;
    }
  }
}

// The module require()s an ES module that the importing graph is still loading (Node cannot
// require a module it has not finished loading): it runs at its place in evaluation order
// instead, with the names Node's lexer finds. Its statements before that require() have run
// once already, and run again then.
const REQUIRED_TOO_EARLY = new Set(["ERR_REQUIRE_ESM_RACE_CONDITION", "ERR_REQUIRE_CYCLE_MODULE"]);
const TOO_EARLY = Symbol("required too early");

// "default" is the default export above, "module.exports" Node's name for the whole object; an
// export name must be well-formed Unicode.
const LONE_SURROGATE = /\p{Cs}/u;

function isExportName(key: string): boolean {
  return key !== "default" && key !== "module.exports" && !LONE_SURROGATE.test(key);
}
