// import() of a URL (the program's entry, a --hot reload) for rt's CLI bundle. The bundle runs as
// a vm.Script (launcher/code-cache.ts), where import() needs --experimental-vm-modules or prints
// an experimental warning (vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER). A CommonJS module's
// import() needs neither: the launcher (bin/rt.cjs) lends its own, saving a module load at start.
export type ImportUrl = (url: string) => Promise<unknown>;

let lent: ImportUrl | undefined;

/** The launcher's import(), given to main() before anything is imported. */
export function lendImport(importUrl: ImportUrl): void {
  lent = importUrl;
}

export function importUrl(url: string): Promise<unknown> {
  if (!lent) throw new Error("rt: internal error: the launcher lent no import()");
  return lent(url);
}
