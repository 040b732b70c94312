// expect: express 200 hello /users/1
import express from "express";
const app = express();
app.get("/users/:id", (req, res) => {
  res.send(`hello ${req.path}`);
});
const server = app.listen(0, async () => {
  const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/users/1`);
  console.log("express", res.status, await res.text());
  server.close();
});
