// pg: named imports in a "type": "module" package, no connection.
// expect: pg function "a b" 5432
import { Client, escapeIdentifier } from "pg";
console.log("pg", typeof Client, escapeIdentifier("a b"), new Client().port);
