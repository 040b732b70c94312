// lodash-es: named import, and a default import of an extensionless subpath (lodash-es/merge).
// expect: lodash-es {"a":{"b":1,"c":2}} a-b
import merge from "lodash-es/merge";
import { kebabCase } from "lodash-es";
console.log("lodash-es", JSON.stringify(merge({ a: { b: 1 } }, { a: { c: 2 } })), kebabCase("aB"));
