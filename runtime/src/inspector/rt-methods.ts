// Protocol methods of rt's own that the inspector's server thread answers itself (they never
// reach V8), shared by that thread and the web debugger's page.

/** The URL prefixes of rt's own files, which the page leaves out of its file list: `{ prefixes }`. */
export const INTERNAL_URLS_METHOD = "Rt.getInternalUrls";
