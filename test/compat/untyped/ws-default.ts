// ws: default import plus a named one in a package without "type".
// expect: ws 1 pong
import WebSocket, { WebSocketServer } from "ws";
const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" }, () => {
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`);
  client.on("message", (m) => {
    console.log("ws", WebSocket.OPEN, String(m));
    client.close();
    wss.close();
  });
});
wss.on("connection", (socket) => socket.send("pong"));
