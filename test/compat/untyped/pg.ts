// pg: default import, client built without connecting, escaping helpers.
// expect: pg "my""table" 'it''s' localhost
import pg from "pg";
const client = new pg.Client({ host: "localhost", database: "x" });
console.log("pg", client.escapeIdentifier('my"table'), client.escapeLiteral("it's"), client.host);
