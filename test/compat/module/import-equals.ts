// `import x = require()` in a "type": "module" package.
// expect: import= 1.2.4
import semver = require("semver");
console.log("import=", semver.inc("1.2.3", "patch"));
