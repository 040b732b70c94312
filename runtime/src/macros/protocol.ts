// What rt sends the macro runner process (on its stdin) and what it answers (on fd 3: the
// runner's stdout belongs to the macros, whose console.log output rt shows on stderr).
import type { FlagValues } from "../flags/parse.js";

export interface MacroRequest {
  readonly cwd: string;
  readonly cacheRoot: string | undefined;
  /** The caller's transpilation and resolution flags: macro modules transpile as the caller's files. */
  readonly values: FlagValues;
  readonly calls: readonly { readonly module: string; readonly exportName: string; readonly args: string }[];
}

/**
 * Per call: the result as JavaScript source (JSON, or `undefined`), or why there is none: `error`
 * about the call, or `failed`, rt's own report of a file that could not load (shown as it is).
 */
export type MacroResult = { readonly code: string } | { readonly error: string } | { readonly failed: string };

export interface MacroResponse {
  readonly results: readonly MacroResult[];
}
