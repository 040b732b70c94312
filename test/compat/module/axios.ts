// axios against a local server on port 0.
// expect: axios 200 {"hello":"axios"}
import axios from "axios";
import { createServer } from "node:http";
const server = createServer((_req, res) => {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ hello: "axios" }));
});
server.listen(0, async () => {
  const { port } = server.address() as { port: number };
  const res = await axios.get(`http://127.0.0.1:${port}/`);
  console.log("axios", res.status, JSON.stringify(res.data));
  server.close();
});
