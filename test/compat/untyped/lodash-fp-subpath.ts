// Bare subpath without extension into a package without "exports" (lodash/fp is both fp.js and fp/).
// expect: lodash/fp 2,3,4
import fp from "lodash/fp";
console.log(
  "lodash/fp",
  fp
    .map((n: number) => n + 1)([1, 2, 3])
    .join(","),
);
