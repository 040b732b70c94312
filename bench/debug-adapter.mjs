// The debug adapter's speed (issue 10), measured side by side with the engine's floor in one run:
//   launch: from the DAP `launch` request to the `stopped` event of the first breakpoint, on a
//           5,000-line TypeScript program (target <= 1.5 s), against a raw CDP client that starts
//           `node --inspect-brk` on the pre-built JavaScript of the same program and reaches its
//           first pause (target ratio <= 2x). Rounds alternate the two; ratios are per round.
//   step:   the median round trip of one `next` request to its `stopped` event, over 100 steps
//           (target <= 5 ms).
// Usage: node bench/debug-adapter.mjs [--runs N]
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { DapClient } from "../debug-adapter/test/dap.mjs";
import { machineLine, median, NODE, RT, runsOption, WORK } from "./lib.mjs";

const rounds = runsOption(10);
const dir = path.join(WORK, "debug-adapter");
mkdirSync(dir, { recursive: true });

// 5,000 lines: 999 small typed functions (5 lines each), then a loop that calls the last one.
const lines = ["interface Box { value: number }"];
for (let i = 0; i < 999; i++) lines.push(`function f${i}(box: Box): number {`, `  const doubled: number = box.value * 2;`, `  return doubled + ${i};`, "}", "");
const target = lines.length + 3;
lines.push("let total = 0;", "for (let i = 0; i < 200; i++) {", "  const box: Box = { value: i };", "  total += f998(box);", "}", "console.log(total);");
const program = path.join(dir, "big.ts");
writeFileSync(program, `${lines.join("\n")}\n`);
const built = path.join(dir, "big.mjs");
await build({ entryPoints: [program], outfile: built, format: "esm", platform: "node", sourcemap: "inline", logLevel: "warning" });
const fakeTest = { after() {} };

/** launch -> first breakpoint through the adapter; optionally 100 steps. */
async function adapterRound(steps) {
  const dap = DapClient.start(fakeTest);
  await dap.request("initialize", { adapterID: "rt", pathFormat: "path", linesStartAt1: true, columnsStartAt1: true });
  const started = performance.now();
  const launched = dap.raw("launch", { program, runtimeExecutable: RT });
  await dap.event("initialized");
  await dap.request("setBreakpoints", { source: { path: program }, breakpoints: [{ line: target }] });
  await dap.request("configurationDone");
  await dap.stopped();
  const ms = performance.now() - started;
  await launched;
  const stepTimes = [];
  for (let i = 0; i < steps; i++) {
    const before = performance.now();
    const stopped = dap.stopped();
    await dap.request("next", { threadId: 1 });
    await stopped;
    stepTimes.push(performance.now() - before);
  }
  await dap.raw("disconnect", { terminateDebuggee: true });
  dap.child.kill();
  return { ms, stepTimes };
}

/**
 * The floor: node --inspect-brk on the built JavaScript, a raw CDP client, first pause. The same
 * client on `rt --inspect-brk big.ts` shows what rt's own start (transpiled file, inspector thread)
 * costs apart from the adapter.
 */
async function rawRound(command) {
  const started = performance.now();
  const child = spawn(NODE, command, { stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise((resolve) => {
    let text = "";
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      text += chunk;
      const match = /ws:\/\/\S+/.exec(text);
      if (match) resolve(match[0]);
    });
  });
  const socket = new WebSocket(url);
  await new Promise((resolve) => (socket.onopen = resolve));
  const paused = new Promise((resolve) => (socket.onmessage = (event) => JSON.parse(String(event.data)).method === "Debugger.paused" && resolve()));
  let id = 1;
  for (const method of ["Runtime.enable", "Debugger.enable", "Runtime.runIfWaitingForDebugger"]) socket.send(JSON.stringify({ id: id++, method }));
  await paused;
  const ms = performance.now() - started;
  socket.close();
  child.kill("SIGKILL");
  return ms;
}

const report = [];
const print = (line = "") => report.push(line);
print(machineLine());
print(`program: ${lines.length} lines of TypeScript, breakpoint on line ${target}; ${rounds} rounds (+2 warm-up), alternating\n`);
const adapter = [];
const floor = [];
const rtRaw = [];
let steps = [];
const nodeRound = () => rawRound(["--inspect-brk=127.0.0.1:0", built]);
const rtRound = () => rawRound([RT, "--inspect-brk=127.0.0.1:0", program]);
for (let round = 0; round < rounds + 2; round++) {
  // Round-robin, the order rotating each round.
  const jobs = [async () => adapter.push((await adapterRound(0)).ms), async () => floor.push(await nodeRound()), async () => rtRaw.push(await rtRound())];
  for (let i = 0; i < jobs.length; i++) await jobs[(i + round) % jobs.length]();
  if (round < 2) {
    adapter.pop();
    floor.pop();
    rtRaw.pop();
  }
}
steps = (await adapterRound(100)).stepTimes;
const ratio = median(adapter.map((ms, i) => ms / floor[i]));
const fmt = (ms) => `${ms.toFixed(1)} ms`;
print("| | median | min |");
print("|---|---|---|");
print(`| rt-debug-adapter: launch -> first breakpoint | ${fmt(median(adapter))} | ${fmt(Math.min(...adapter))} |`);
print(`| raw CDP client: node --inspect-brk -> first pause | ${fmt(median(floor))} | ${fmt(Math.min(...floor))} |`);
print(`| raw CDP client: rt --inspect-brk big.ts -> first pause | ${fmt(median(rtRaw))} | ${fmt(Math.min(...rtRaw))} |`);
print(`| step (next -> stopped), 100 steps | ${fmt(median(steps))} | ${fmt(Math.min(...steps))} |`);
print("");
print(`launch -> first breakpoint: ${fmt(median(adapter))} (target <= 1500 ms) ${median(adapter) <= 1500 ? "OK" : "MISSED"}`);
print(`ratio to the floor (median of per-round ratios): ${ratio.toFixed(2)}x (target <= 2x) ${ratio <= 2 ? "OK" : "MISSED"}`);
print(
  `rt's own share: rt --inspect-brk with a raw client is ${median(rtRaw.map((ms, i) => ms / floor[i])).toFixed(2)}x the floor; the adapter is ${median(adapter.map((ms, i) => ms / rtRaw[i])).toFixed(2)}x that`,
);
print(`median step round trip: ${fmt(median(steps))} (target <= 5 ms) ${median(steps) <= 5 ? "OK" : "MISSED"}`);
// Children (adapters, programs) may still hold handles: leave once the report is written.
process.stdout.write(`${report.join("\n")}\n`, () => process.exit(0));
