// The ONE list of compatibility cases rt fails today, each with the issue-18 item it belongs to
// and rt's error. test/compat.test.mjs marks these `todo` (run, reported, not failing `npm test`);
// `npm run compat` names the ones that pass now. Delete an entry when the loader fix lands.
export const KNOWN_FAILURES = {
  // #1 named imports from CommonJS whose exports Node's lexer cannot see
  "untyped/lodash-named.ts": "#1 CJS named exports: Named export 'chunk' not found (lodash)",
  "module/lodash-named.ts": "#1 CJS named exports: Named export 'debounce' not found (lodash)",
  "untyped/fs-extra.ts": "#1 CJS named exports: Named export 'pathExistsSync' not found (fs-extra)",
  "untyped/jsonwebtoken.ts": "#1 CJS named exports: Named export 'sign' not found (jsonwebtoken)",
  "untyped/mixed-import-require.ts": "#1 then #5: Named export 'chunk' not found (lodash), then require() beside import",
  "untyped/dynamic-import-cjs.ts": "#1 via import(): the namespace of lodash has only default: chunk is not a function (bun passes, tsx fails)",
  // #5 lenient module classification
  "module/import-equals.ts": "#5 import x = require() in a type:module package: require is not defined in ES module scope",
  "module/mixed-import-require.ts": "#5 import + require() in a type:module package: require is not defined in ES module scope",
  "untyped/dirname.ts": "#5 CommonJS globals beside import (tsx/bun compile or provide them): __dirname is not defined in ES module scope",
  "module/dirname.ts": "#5 __dirname in a type:module .ts (bun provides it): __dirname is not defined in ES module scope",
  // #13 emitDecoratorMetadata
  "untyped/decorator-metadata.ts": "#13 emitDecoratorMetadata ignored: design:paramtypes is undefined",
  "module/inversify.ts": "#13 emitDecoratorMetadata ignored: inversify finds no constructor metadata",
  // #14 default import of __esModule CommonJS
  "untyped/p-queue-default-esmodule.ts": "#14 default import of exports.default (__esModule): PQueue is not a constructor",
};
