// expect: dotenv hello from dotenv 3
import dotenv from "dotenv";
const out: Record<string, string> = {};
dotenv.config({ path: "data/app.env", processEnv: out, quiet: true });
console.log("dotenv", out.GREETING, out.COUNT);
