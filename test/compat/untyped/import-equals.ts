// TypeScript's `import x = require()` in a package without "type".
// expect: import= 3 ["x","y"]
import minimist = require("minimist");
const argv = minimist(["-n", "3", "x", "y"]);
console.log("import=", argv.n, JSON.stringify(argv._));
