// Types for the "rt" module and the `rt` global, for editors and `tsc`.

export interface RtNamespace {
  /** rt's version, e.g. "0.1.0". */
  readonly version: string;
  /** Absolute path of the entry rt runs (`<cwd>/[eval]` or `<cwd>/[stdin]` for inline code). */
  readonly main: string;
  /**
   * Formats a value as util.inspect does; for an error, first the original source lines around
   * where it was thrown (line numbers in a gutter, a caret under the column).
   */
  inspect(value: unknown, options?: InspectOptions): string;
}

export interface InspectOptions {
  /** ANSI colours and syntax highlighting (default false). */
  colors?: boolean;
  /** How deep util.inspect descends into objects. */
  depth?: number | null;
}

export declare const version: RtNamespace["version"];
export declare const main: RtNamespace["main"];
export declare const inspect: RtNamespace["inspect"];

declare const rt: RtNamespace;
export default rt;

declare global {
  /** The rt namespace; the same object as `import rt from "rt"`. */
  var rt: RtNamespace;
}
