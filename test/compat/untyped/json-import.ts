// Importing a package's package.json without `with { type: "json" }` (tsconfig resolveJsonModule style).
// expect: json semver 7.8.6 7.8.6
import pkg from "semver/package.json";
import { version } from "semver/package.json";
console.log("json", pkg.name, pkg.version, version);
