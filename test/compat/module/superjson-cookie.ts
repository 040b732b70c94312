// expect: superjson Date 2024 cookie sid=abc; HttpOnly
import superjson from "superjson";
import { stringifySetCookie } from "cookie";
const back = superjson.parse<{ d: Date }>(superjson.stringify({ d: new Date("2024-05-01T00:00:00Z") }));
console.log("superjson", back.d.constructor.name, back.d.getUTCFullYear(), "cookie", stringifySetCookie({ name: "sid", value: "abc", httpOnly: true }));
