// fp-ts/Option is a directory whose package.json has "main": "../lib/Option.js".
// expect: fp-ts some(42) none
import * as O from "fp-ts/Option";
import { pipe } from "fp-ts/function";
const show = (o: O.Option<number>) => (O.isSome(o) ? `some(${o.value})` : "none");
console.log(
  "fp-ts",
  show(
    pipe(
      O.some(21),
      O.map((n) => n * 2),
    ),
  ),
  show(O.none),
);
