// expect: path-to-regexp {"id":"42"} /users/7
import { match, compile } from "path-to-regexp";
const m = match("/users/:id")("/users/42");
console.log("path-to-regexp", JSON.stringify(m ? m.params : null), compile("/users/:id")({ id: "7" }));
