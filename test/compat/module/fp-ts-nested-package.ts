// fp-ts/Array resolves through a nested package.json ("main": "../lib/Array.js") from ESM.
// expect: fp-ts 6
import * as A from "fp-ts/Array";
import { pipe } from "fp-ts/function";
console.log(
  "fp-ts",
  pipe(
    [1, 2, 3],
    A.reduce(0, (a: number, b: number) => a + b),
  ),
);
