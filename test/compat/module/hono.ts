// hono on @hono/node-server, port 0, one request, close.
// expect: hono 200 hello hono
import { Hono } from "hono";
import { serve } from "@hono/node-server";
const app = new Hono();
app.get("/", (c) => c.text("hello hono"));
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, async (info) => {
  const res = await fetch(`http://127.0.0.1:${info.port}/`);
  console.log("hono", res.status, await res.text());
  server.close();
});
