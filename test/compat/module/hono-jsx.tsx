/** @jsxImportSource hono/jsx */
// hono's own JSX runtime (a nested subpath of an "exports" map) rendered through c.html, no server.
// expect: hono/jsx 200 <h1 class="t">Hello hono</h1>
import { Hono } from "hono";
const app = new Hono();
app.get("/", (c) => c.html(<h1 class="t">Hello {"hono"}</h1>));
const res = await app.request("/");
console.log("hono/jsx", res.status, await res.text());
