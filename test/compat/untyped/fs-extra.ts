// fs-extra's named exports (assigned in ways Node's lexer does not see).
// expect: fs-extra true {"name":"compat-module-cases","private":true,"type":"module"}
import { pathExistsSync, readJsonSync } from "fs-extra";
console.log("fs-extra", pathExistsSync("data/a.txt"), JSON.stringify(readJsonSync("module/package.json")));
