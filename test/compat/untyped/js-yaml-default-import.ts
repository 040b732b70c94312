// Decided (docs/running.md, "Module formats"): a .ts file with import/export in a package without
// "type" is an ES module, as in Node and bun, so a default import of an ES module that has none
// (js-yaml's ESM build) fails to link, with a SyntaxError; the namespace import works everywhere.
// tsx differs: it compiles such a file to CommonJS, where the default import is the whole module.
// expect: namespace a: 1
// expect: default import: SyntaxError
import * as yaml from "js-yaml";

console.log("namespace", yaml.dump({ a: 1 }).trim());
import("./lib/js-yaml-default.ts").then(
  (lib) => console.log("default import: loaded", lib.dumped),
  (error: Error) => console.log("default import:", error.name),
);
