// expect: qs {"a":{"b":["1","2"]}} a%5Bb%5D=c
import { parse, stringify } from "qs";
console.log("qs", JSON.stringify(parse("a[b][]=1&a[b][]=2")), stringify({ a: { b: "c" } }));
