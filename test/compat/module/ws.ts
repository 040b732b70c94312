// ws: a server on port 0 and a client, one echo, close.
// expect: ws echo:ping
import { WebSocketServer, WebSocket } from "ws";
const wss = new WebSocketServer({ port: 0 }, () => {
  const ws = new WebSocket(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`);
  ws.on("open", () => ws.send("ping"));
  ws.on("message", (data) => {
    console.log("ws", String(data));
    ws.close();
    wss.close();
  });
});
wss.on("connection", (socket) => socket.on("message", (m) => socket.send(`echo:${m}`)));
