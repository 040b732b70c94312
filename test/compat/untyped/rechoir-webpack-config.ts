// webpack-cli's way to load webpack.config.ts: rechoir.prepare() with interpret's table returns
// true when `require.extensions` has ".ts" already (a TypeScript loader is active), else it tries
// to register ts-node, @swc/register, … (none installed here), then the config is require()d.
// expect: prepared true
// expect: production ./src/index.ts /project/dist/bundle.js
import path from "node:path";
import interpret from "interpret";
import rechoir from "rechoir";

const file = path.resolve("untyped/lib/webpack.config.ts");
console.log("prepared", rechoir.prepare(interpret.extensions, file));
const loaded = require(file);
const config = loaded.default ?? loaded;
console.log(config.mode, config.entry, path.join(config.output.path, config.output.filename));
