// __dirname and __filename in a "type": "module" .ts file (code written for CommonJS output; bun provides them).
// expect: dirname module dirname.ts
import path from "node:path";
console.log("dirname", path.basename(__dirname), path.basename(__filename));
