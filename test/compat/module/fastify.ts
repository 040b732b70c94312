// expect: fastify 200 {"hello":"fastify"}
import Fastify from "fastify";
const app = Fastify();
app.get("/", async () => ({ hello: "fastify" }));
const address = await app.listen({ port: 0, host: "127.0.0.1" });
const res = await fetch(address);
console.log("fastify", res.status, await res.text());
await app.close();
