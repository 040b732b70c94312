// A dependency whose `main` or `exports` names a file that is not there: Node's error and code.
// cwd: projects/missing-entry
// args: main.ts
// expect: import ERR_MODULE_NOT_FOUND Cannot find package './node_modules/main-missing/dist/index.js' imported from ./main.ts
// expect: require MODULE_NOT_FOUND Cannot find module './node_modules/main-missing/dist/index.js'. Please verify that the package.json has a valid "main" entry
// expect: import ERR_MODULE_NOT_FOUND Cannot find module './node_modules/exports-missing/dist/index.js' imported from ./main.ts
// expect: require MODULE_NOT_FOUND Cannot find module './node_modules/exports-missing/dist/index.js'
