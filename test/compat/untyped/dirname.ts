// __dirname beside `import` in a package without "type".
// expect: dirname untyped dirname.ts
import path from "node:path";
console.log("dirname", path.basename(__dirname), path.basename(__filename));
