// fp-ts through its lib/ paths, as older code imports it.
// expect: fp-ts/lib right:3 left:bad
import * as E from "fp-ts/lib/Either";
const parse = (s: string): E.Either<string, number> => (/^\d+$/.test(s) ? E.right(Number(s)) : E.left(s));
const show = (e: E.Either<string, number>) =>
  E.match(
    (l: string) => `left:${l}`,
    (r: number) => `right:${r}`,
  )(e);
console.log("fp-ts/lib", show(parse("3")), show(parse("bad")));
