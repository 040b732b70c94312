// require() from a .cts file.
// expect: require .cts [["a","b"],["c"]] 1.2.3
const { chunk } = require("lodash");
const semver = require("semver");
console.log("require .cts", JSON.stringify(chunk(["a", "b", "c"], 2)), semver.clean(" =v1.2.3 "));
