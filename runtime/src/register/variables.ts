// The environment variables that carry rt into child threads and processes (see inherit.ts):
// their own module, so the register preload reads them without loading the flag table.
export const NODE_OPTIONS = "NODE_OPTIONS";
export const LOADER_VARIABLE = "RT_LOADER_OPTIONS";
export const THREAD_VARIABLE = "RT_THREAD";
