// Types for the "rt" module and the `rt` global, for editors and `tsc`.

export interface RtNamespace {
  /** rt's version, e.g. "0.1.0". */
  readonly version: string;
  /** Absolute path of the entry rt runs (`<cwd>/[eval]` or `<cwd>/[stdin]` for inline code). */
  readonly main: string;
}

export declare const version: RtNamespace["version"];
export declare const main: RtNamespace["main"];

declare const rt: RtNamespace;
export default rt;

declare global {
  /** The rt namespace; the same object as `import rt from "rt"`. */
  var rt: RtNamespace;
}
