import { createRequire } from "node:module";
import entry from "dual-entry";

const require = createRequire(import.meta.url);
console.log(entry, require("dual-entry/lib"), require("dual-entry/util"));
