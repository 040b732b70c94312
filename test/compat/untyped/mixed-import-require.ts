// A file that mixes `import` with `require()` (bun runs it; Node's ESM has no require).
// expect: mixed [[1],[2]] 2m
import { chunk } from "lodash";
const ms = require("ms");
console.log("mixed", JSON.stringify(chunk([1, 2], 1)), ms(120000));
