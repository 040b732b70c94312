// The module-format policy: whether each script file runs as an ES module or as CommonJS, for
// files rt transpiles and for plain JavaScript Node loads alike (hooks.ts asks it at load time).
import { lstatSync } from "node:fs";
import type { LoadFnOutput } from "node:module";
import * as path from "node:path";
import type { ModuleFormat } from "../transpile/cache.js";
import { syntaxFormat } from "../transpile/transpile.js";
import { withCommonJsScope } from "./commonjs-scope.js";
import { NODE_MODULES, readPackageJson } from "./resolve.js";

// An import/export statement at the start of a line or after `;`/`}` (minified code), or
// import.meta: worth the costly syntax check. (`exports.x =` is not one: no space, brace or star.)
const MODULE_STATEMENT = /(?:^[ \t]*|[;}])(?:import[\s{*"']|export[\s{*])|\bimport\.meta\b/m;

const COMMONJS_NAMES = ["require", "__filename", "__dirname"];

/** Script loaders of the files rt compiles (Node cannot run them itself). */
export const COMPILED_LOADERS: ReadonlySet<string> = new Set(["jsx", "ts", "tsx"]);

export class ModuleFormats {
  private readonly packageTypes = new Map<string, string | undefined>();

  /** `virtual`: sources that live in memory (--eval, stdin), by virtual path. */
  constructor(private readonly virtual: ReadonlyMap<string, string>) {}

  /**
   * The one place that decides how each script file runs. `.mts`/`.mjs` are ES modules and
   * `.cts`/`.cjs` CommonJS; under `"type": "module"` everything is an ES module; every other
   * file is an ES module when its syntax says so (import/export, import.meta, top-level await),
   * else CommonJS. That last rule is Node's for packages without a type. Under `"type":
   * "commonjs"` the TypeScript and JSX rt compiles have their import/export compiled to
   * require/exports first, as tsc and tsx compile them (see prefersCommonJs): only top-level
   * await or import.meta make one an ES module there. Plain `.js` keeps its syntax's format, as
   * in bun (Node refuses ESM syntax there).
   */
  formatFor(file: string, syntax: () => ModuleFormat): ModuleFormat {
    // Inline code (--eval, stdin) belongs to no package: only its syntax counts, as in Node.
    if (this.virtual.has(file)) return syntax();
    const ext = path.extname(file);
    if (ext === ".mts" || ext === ".mjs") return "module";
    if (ext === ".cts" || ext === ".cjs") return "commonjs";
    if (this.packageType(path.dirname(file)) === "module") return "module";
    return syntax();
  }

  /**
   * Whether `file`, compiled with `loader`, has its import/export compiled to CommonJS: the
   * TypeScript or JSX of a `"type": "commonjs"` package (an explicit type decides, as for tsc).
   */
  prefersCommonJs(file: string, loader: string): boolean {
    if (!COMPILED_LOADERS.has(loader) || this.virtual.has(file)) return false;
    const ext = path.extname(file);
    return ext !== ".mts" && ext !== ".mjs" && this.packageType(path.dirname(file)) === "commonjs";
  }

  /**
   * Plain JavaScript as Node loaded it, under rt's format policy where that differs from Node's:
   * a `.js` file with ESM syntax under `"type": "commonjs"` is an ES module, and an ES module of
   * the project's own that uses require(), __filename or __dirname gets them. Every other file
   * keeps Node's format, which the policy agrees with.
   */
  plainJavaScript(file: string, loaded: LoadFnOutput): LoadFnOutput {
    if (loaded.source == null || path.extname(file) !== ".js") return loaded;
    // Node reads a file for require() as a string and for import as bytes: no copy of either.
    const source = typeof loaded.source === "string" ? loaded.source : asBuffer(loaded.source);
    if (loaded.format === "module") {
      // A published package's ES modules were written for Node, which gives them no require().
      if (file.includes(NODE_MODULES) || !COMMONJS_NAMES.some((name) => source.includes(name))) return loaded;
      return { format: "module", source: withCommonJsScope(source.toString(), file), shortCircuit: true };
    }
    // Without a type Node has judged the syntax already (the policy's rule); under
    // "type": "commonjs" it is rt's to check, after a cheap look for a module statement.
    const syntax = (): ModuleFormat => {
      if (this.packageType(path.dirname(file)) !== "commonjs") return "commonjs";
      const code = source.toString();
      return MODULE_STATEMENT.test(code) ? syntaxFormat(code) : "commonjs";
    };
    if (loaded.format !== "commonjs" || this.formatFor(file, syntax) !== "module") return loaded;
    return { format: "module", source: withCommonJsScope(source.toString(), file), shortCircuit: true };
  }

  private packageType(dir: string): string | undefined {
    if (this.packageTypes.has(dir)) return this.packageTypes.get(dir);
    const file = path.join(dir, "package.json");
    // lstat first: most directories have no package.json; a symbolic link loop is there and
    // reported by the read (existsSync would call it missing and leave Node to fail on it).
    const manifest = lstatSync(file, { throwIfNoEntry: false }) ? readPackageJson(file) : undefined;
    const parent = path.dirname(dir);
    const type = manifest ? (typeof manifest.type === "string" ? manifest.type : undefined) : parent === dir ? undefined : this.packageType(parent);
    this.packageTypes.set(dir, type);
    return type;
  }
}

function asBuffer(source: ArrayBuffer | NodeJS.TypedArray): Buffer {
  if (source instanceof ArrayBuffer) return Buffer.from(source);
  return Buffer.from(source.buffer, source.byteOffset, source.byteLength);
}

// rt's policy runs a typeless package's .js file by its syntax, silently (see formatFor); Node
// would warn about the same file each run.
export function silenceTypelessPackageWarning(): void {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]): void {
    const options = rest[0];
    const code = typeof options === "object" && options !== null ? (options as { code?: string }).code : rest[1];
    if (code === "MODULE_TYPELESS_PACKAGE_JSON") return;
    (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
}
