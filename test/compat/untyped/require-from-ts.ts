// require() from a .ts file with no import/export (CommonJS in a package without "type").
// expect: require .ts 2s true
const ms = require("ms");
const semver = require("semver");
console.log("require .ts", ms(1500), semver.satisfies("1.4.0", "^1.2.0"));
