// zod (ESM + CJS dual package) through require() from a .cts file in a "type": "module" package.
// expect: zod 3 false
const { z } = require("zod");
console.log("zod", z.string().min(1).parse("abc").length, z.number().safeParse("x").success);
