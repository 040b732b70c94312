// tsconfig's emitDecoratorMetadata: the `design:type`, `design:paramtypes` and
// `design:returntype` metadata that inversify, NestJS-style injection and typeorm read through
// reflect-metadata. esbuild does not emit it; TypeScript's own transpileModule does. So a file
// with decorators, under experimentalDecorators + emitDecoratorMetadata, goes through
// TypeScript first (decorators and metadata lowered, everything else left as modern
// JavaScript, JSX kept) and then through esbuild as any file does; esbuild reads TypeScript's
// inline source map, so positions still point into the original file. TypeScript is loaded
// on such a file's cache miss only.
import * as path from "node:path";
import type * as TypeScript from "typescript";
import type { ScriptLoader } from "../flags/table.js";

export interface DecoratorMetadataOptions {
  /** tsconfig's useDefineForClassFields, or what TypeScript and esbuild derive from its target. */
  readonly useDefineForClassFields: boolean;
  readonly verbatimModuleSyntax: boolean;
}

/** The options to emit metadata with, when the tsconfig asks for it; undefined otherwise. */
export function decoratorMetadataOptions(compilerOptions: Readonly<Record<string, unknown>>): DecoratorMetadataOptions | undefined {
  if (compilerOptions.experimentalDecorators !== true || compilerOptions.emitDecoratorMetadata !== true) return undefined;
  const target = typeof compilerOptions.target === "string" ? compilerOptions.target.toLowerCase() : undefined;
  const modernTarget = target === undefined || target === "esnext" || (/^es20\d\d$/.test(target) && Number(target.slice(2)) >= 2022);
  const explicit = compilerOptions.useDefineForClassFields;
  return {
    useDefineForClassFields: typeof explicit === "boolean" ? explicit : modernTarget,
    verbatimModuleSyntax: compilerOptions.verbatimModuleSyntax === true,
  };
}

// A decorator: `@name` at the start of a line (not ` * @param` in a doc comment) or on a
// parameter, after `(` or `,`.
const DECORATOR = /(?:^|[(,])[ \t]*@[A-Za-z_$]/m;

/** TypeScript or TSX source with decorators: worth TypeScript's pass. */
export function hasDecorators(source: string, loader: ScriptLoader): boolean {
  return (loader === "ts" || loader === "tsx") && DECORATOR.test(source);
}

/** The file as JavaScript with its decorators and their metadata lowered, and the loader for the rest. */
export function lowerDecorators(file: string, source: string, loader: ScriptLoader, options: DecoratorMetadataOptions): { code: string; loader: ScriptLoader } {
  const ts = typescript();
  const output = ts.transpileModule(source, {
    fileName: path.basename(file),
    compilerOptions: {
      target: ts.ScriptTarget.ESNext,
      module: ts.ModuleKind.ESNext,
      jsx: ts.JsxEmit.Preserve,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: options.useDefineForClassFields,
      verbatimModuleSyntax: options.verbatimModuleSyntax,
      importHelpers: false,
      inlineSourceMap: true,
      inlineSources: true,
    },
  });
  return { code: output.outputText, loader: loader === "tsx" ? "jsx" : "js" };
}

let loaded: typeof TypeScript | undefined;

function typescript(): typeof TypeScript {
  return (loaded ??= require("typescript") as typeof TypeScript);
}
