// A CommonJS package that reads process.env when it loads (debug) runs after the ES module imported
// before it, which sets the variable: evaluation order is import order (the `import "dotenv/config"` pattern).
// expect: debug order true true
import "./lib/set-debug-env.ts";
import createDebug, { enabled } from "debug";
console.log("debug order", createDebug.enabled("app:x"), enabled("app:y"));
