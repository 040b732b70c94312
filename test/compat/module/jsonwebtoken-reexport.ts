// Named CommonJS exports re-exported through a local ES module (export { … } from "cjs").
// expect: jsonwebtoken 42
import { sign, verify } from "./lib/jwt.ts";
console.log("jsonwebtoken", (verify(sign({ sub: "42" }, "k"), "k") as { sub: string }).sub);
