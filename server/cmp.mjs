import { spawn } from "node:child_process";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";
async function once(file) {
  const t = performance.now();
  const child = spawn(process.execPath, [file, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
  const c = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  c.listen();
  await c.sendRequest("initialize", { processId: null, rootUri: null, capabilities: {} });
  const ms = performance.now() - t;
  child.kill(); c.dispose();
  return ms;
}
const a = [], b = [];
for (let i = 0; i < 40; i++) { if (i % 2) { a.push(await once("/work/wt-11/server/dist/server.cjs")); b.push(await once("/work/wt-11/server/dist/launch.cjs")); } else { b.push(await once("/work/wt-11/server/dist/launch.cjs")); a.push(await once("/work/wt-11/server/dist/server.cjs")); } }
const med = (x) => [...x].sort((p, q) => p - q)[x.length >> 1];
const ratio = med(a.map((x, i) => b[i] / x));
console.log("plain min/med", Math.min(...a).toFixed(1), med(a).toFixed(1), "cached min/med", Math.min(...b).toFixed(1), med(b).toFixed(1), "per-round cached/plain", ratio.toFixed(2));
