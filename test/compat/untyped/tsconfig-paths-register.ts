// tsconfig-paths' register() maps an alias to a file it finds by probing the extensions
// `require.extensions` lists: the alias names a .ts file, found only when ".ts" is listed.
// expect: hello rt from an alias
import path from "node:path";
import { register } from "tsconfig-paths";

register({ baseUrl: path.resolve("untyped/lib"), paths: { "@aliased/*": ["aliased/*"] } });
const { greet } = require("@aliased/greet");
console.log(greet("rt"));
