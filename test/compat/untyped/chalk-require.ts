// require() of an ESM-only package (chalk 6) from CommonJS .ts.
// expect: chalk "\u001b[31mred\u001b[39m"
const { Chalk } = require("chalk");
console.log("chalk", JSON.stringify(new Chalk({ level: 1 }).red("red")));
