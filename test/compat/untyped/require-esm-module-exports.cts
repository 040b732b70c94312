// require() of a TypeScript ES module that exports "module.exports" (Node 24's require(esm)
// interop) returns that value, from a .cts file and from a .cjs file alike.
// expect: Point 3 true
const Point = require("./lib/module-exports-point.mts");
const fromCjs = require("./lib/require-point.cjs");
console.log(Point.name, new Point(3).x, fromCjs === Point);
