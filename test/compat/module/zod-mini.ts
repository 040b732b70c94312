// expect: zod/mini true false
import * as z from "zod/mini";
const N = z.number().check(z.minimum(2));
console.log("zod/mini", N.safeParse(3).success, N.safeParse(1).success);
