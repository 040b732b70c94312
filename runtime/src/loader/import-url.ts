// import() of a URL (the program's entry, a --hot reload) for rt's CLI bundle. The bundle runs as
// a vm.Script (launcher/code-cache.ts), where import() needs --experimental-vm-modules or prints
// an experimental warning (vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER); a CommonJS module's
// import() needs neither: the build makes this one dist/import-url.cjs, which the bundles require.
export function importUrl(url: string): Promise<unknown> {
  return import(url);
}
