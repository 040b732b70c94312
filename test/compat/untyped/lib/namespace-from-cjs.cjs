// A CommonJS entry's import() of a CommonJS .ts file: Node's namespace.
import("./compiled-commonjs.ts").then((ns) => {
  console.log(Object.keys(ns).join(","), typeof ns.default, ns.default === ns["module.exports"], ns.named);
});
