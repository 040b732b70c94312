// koa server on port 0, one request, close.
// expect: koa 200 hello from koa /x
import Koa from "koa";
const app = new Koa();
app.use(async (ctx) => {
  ctx.body = `hello from koa ${ctx.path}`;
});
const server = app.listen(0, async () => {
  const { port } = server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}/x`);
  console.log("koa", res.status, await res.text());
  server.close();
});
