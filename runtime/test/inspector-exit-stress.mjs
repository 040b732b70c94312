// rt's exit after its debugger disconnects, many times, several at once (not part of npm test:
// minutes long). Each run: `rt --inspect-brk app.ts`, a CDP client sets a breakpoint, steps,
// resumes to the end and disconnects at Node's waiting line (the flow that once ended by SIGABRT,
// 1 run in 600, under load). Counts runs by outcome; prints the stderr of any other than a clean
// exit 0 with Node's line once. With cores enabled (ulimit -c unlimited) a crash leaves one in the run's directory.
// Usage: node runtime/test/inspector-exit-stress.mjs [--runs N] [--parallel N]
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CdpClient, WAITING_FOR_DISCONNECT } from "./cdp.mjs";
import { FIXTURES, RT_BIN } from "./rt.mjs";

const { values } = parseArgs({ options: { runs: { type: "string", default: "600" }, parallel: { type: "string", default: "4" } } });
const runs = Number(values.runs);
const outcomes = new Map();

async function until(check, child, what) {
  while (!check()) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`rt exited before ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function run() {
  const cwd = mkdtempSync(path.join(tmpdir(), "rt-exit-stress-"));
  cpSync(path.join(FIXTURES, "inspector"), cwd, { recursive: true });
  const child = spawn(process.execPath, ["--", RT_BIN, "--inspect-brk", "app.ts"], { cwd, env: { ...process.env, NO_COLOR: "1" } });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  child.stdout.resume();
  const exited = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  let outcome;
  try {
    await until(() => stderr.split("rt inspector").length > 2, child, "its banner");
    const client = await CdpClient.connect(/ws:\/\/\S+/.exec(stderr)[0]);
    await client.send("Debugger.enable");
    await client.send("Runtime.runIfWaitingForDebugger");
    await client.event("Debugger.paused");
    await client.send("Debugger.setBreakpointByUrl", { urlRegex: "app\\.ts$", lineNumber: 8, columnNumber: 0 });
    await client.send("Debugger.stepOver");
    await client.event("Debugger.paused");
    await client.send("Debugger.resume");
    await client.event("Debugger.paused");
    await client.send("Debugger.resume");
    await until(() => stderr.includes(WAITING_FOR_DISCONNECT), child, "Node's waiting line");
    client.close();
  } catch (error) {
    outcome = `driver: ${error.message}`;
  }
  const { code, signal } = await exited;
  if (signal) outcome = `signal ${signal}`;
  else if (code !== 0) outcome = `exit ${code}`;
  else if (stderr.split(WAITING_FOR_DISCONNECT).length !== 2) outcome = "waiting line not once";
  outcomes.set(outcome ?? "ok", (outcomes.get(outcome ?? "ok") ?? 0) + 1);
  if (!outcome) return rmSync(cwd, { recursive: true, force: true });
  const cores = readdirSync(cwd).filter((name) => name.startsWith("core"));
  console.log(`${outcome} (${cores.length ? `core in ${cwd}` : `no core; ${cwd}`})\n${stderr}`);
}

let started = 0;
const lane = async () => {
  while (started < runs) {
    started++;
    await run();
  }
};
await Promise.all(Array.from({ length: Number(values.parallel) }, lane));
console.log(`${runs} runs:`, Object.fromEntries(outcomes));
process.exitCode = outcomes.get("ok") === runs ? 0 : 1;
