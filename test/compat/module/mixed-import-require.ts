// `import` and `require()` in one file of a "type": "module" package (bun runs it).
// expect: mixed 1s true
import ms from "ms";
const semver = require("semver");
console.log("mixed", ms(1000), semver.valid("1.0.0") === "1.0.0");
