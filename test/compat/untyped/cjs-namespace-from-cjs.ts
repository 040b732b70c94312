// A namespace import of a CommonJS .ts file from a .cjs entry (import() in CommonJS) has Node's
// shape: __esModule, `default` and "module.exports" are module.exports, the lexer's names. (ES
// module importers get bun's interop instead: docs/running.md, Module formats.)
// args: untyped/lib/namespace-from-cjs.cjs
// expect: __esModule,default,module.exports,named object true 1
