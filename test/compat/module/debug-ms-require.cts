// A .cts file inside a "type": "module" package is still CommonJS.
// expect: cts 1m true
const ms = require("ms");
const debug = require("debug");
console.log("cts", ms(60000), typeof debug("x") === "function");
