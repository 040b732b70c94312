// Default import only: the CommonJS package (debug reads process.env.DEBUG when it loads) runs after
// the ES module imported before it, as Node orders evaluation (the `import "dotenv/config"` pattern).
// expect: debug order true
import "./lib/set-debug-env.ts";
import createDebug from "debug";
console.log("debug order", createDebug.enabled("app:x"));
