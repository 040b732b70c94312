// expect: zod ok false
import * as z from "zod";
const User = z.object({ name: z.string(), age: z.number().int() });
console.log("zod", User.parse({ name: "a", age: 3 }).name === "a" ? "ok" : "bad", User.safeParse({ name: 1 }).success);
