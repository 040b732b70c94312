// express through require() in a .cts file.
// expect: express 200 {"id":"7"}
const express = require("express");
const app = express();
app.get("/users/:id", (req: any, res: any) => res.json({ id: req.params.id }));
const server = app.listen(0, async () => {
  const res = await fetch(`http://127.0.0.1:${server.address().port}/users/7`);
  console.log("express", res.status, await res.text());
  server.close();
});
