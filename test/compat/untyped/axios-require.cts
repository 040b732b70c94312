// axios through require() (its "require" export condition) against a local server on port 0.
// expect: axios 201 posted:{"a":1}
const axios = require("axios");
const { createServer } = require("node:http");
const server = createServer((req: any, res: any) => {
  let body = "";
  req.on("data", (d: string) => (body += d)).on("end", () => { res.statusCode = 201; res.end(`posted:${body}`); });
});
server.listen(0, async () => {
  const res = await axios.post(`http://127.0.0.1:${server.address().port}/`, { a: 1 });
  console.log("axios", res.status, res.data);
  server.close();
});
