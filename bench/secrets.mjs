// rt.secrets against the raw @napi-rs/keyring module (one AsyncEntry reused on the main thread),
// secret-tool (a process per operation, as a shell script pays) and Bun.secrets, side by side in
// one run against a private gnome-keyring (test/support/with-keyring.sh). Each round runs a batch
// of sequential get, set and delete operations per contestant, in a fresh random order; the
// ratios to the raw module are medians of per-round ratios (see startup.mjs for the method).
//
//   node bench/secrets.mjs [--rounds N] [--ops N]      (a report: always exits 0)
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { ENV, median, NODE, pairwise, ROOT, RT, setupPeers, shuffle } from "./lib.mjs";

const HARNESS = path.join(ROOT, "test", "support", "with-keyring.sh");
const PEER = path.join(ROOT, "bench", "secrets-peer.mjs");
const WARMUP = 2;
const OPS = ["get", "set", "delete"];
const { values } = parseArgs({ options: { rounds: { type: "string", default: "30" }, ops: { type: "string", default: "30" } } });
const ROUNDS = Math.max(1, Number.parseInt(values.rounds, 10) || 30);
const COUNT = Math.max(1, Number.parseInt(values.ops, 10) || 30);

/** A long-running peer process; `ask` sends one command and resolves its JSON answer. */
function startPeer(cmd, args) {
  const child = spawn(cmd, args, { env: { ...ENV, RT_TRANSPILER_CACHE_PATH: "0" }, stdio: ["pipe", "pipe", "pipe"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`exited: ${stderr.trim().split("\n").slice(-3).join(" / ") || "no output"}`);
    return value;
  };
  return {
    ready: next().then((line) => (line === "ready" ? undefined : Promise.reject(new Error(`said ${line}`)))),
    ask: async (command) => {
      child.stdin.write(`${JSON.stringify(command)}\n`);
      return JSON.parse(await next());
    },
    stop: () => child.kill(),
  };
}

/** secret-tool: one process per operation. */
function secretTool() {
  const VALUE = "bench-token-0123456789abcdef0123456789abcdef";
  const pair = ["service", "bench-secret-tool", "username", "user"];
  const tool = (args, input) => {
    const result = spawnSync("secret-tool", [...args, ...pair], { input, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`secret-tool ${args[0]} failed: ${result.stderr}`);
    return result.stdout;
  };
  const store = () => tool(["store", "--label=bench"], VALUE);
  store();
  const timed = (work) => {
    const start = performance.now();
    work();
    return performance.now() - start;
  };
  return {
    ready: Promise.resolve(),
    ask: async ({ op, count }) =>
      Array.from({ length: count }, () => {
        if (op === "get") return timed(() => tool(["lookup"]));
        if (op === "set") return timed(store);
        store();
        const ms = timed(() => tool(["clear"]));
        store();
        return ms;
      }),
    stop: () => {},
  };
}

async function contestants() {
  const list = [
    { id: "rt", name: "rt.secrets", peer: startPeer(NODE, ["--", RT, PEER, "rt"]) },
    { id: "raw", name: "@napi-rs/keyring (raw AsyncEntry)", peer: startPeer(NODE, [PEER, "raw"]) },
    { id: "secret-tool", name: "secret-tool (a process per op)", peer: secretTool() },
  ];
  const bun = setupPeers(["bun"]).bun;
  if (bun) list.push({ id: "bun", name: `Bun.secrets (bun ${bun.version})`, peer: startPeer(bun.cmd, [PEER, "bun"]) });
  const working = [];
  for (const c of list) {
    try {
      await c.peer.ready;
      working.push(c);
    } catch (error) {
      console.log(`skipped ${c.name}: ${error.message}`);
      c.peer.stop();
    }
  }
  return working;
}

async function main() {
  const all = await contestants();
  const rows = all.flatMap((c) => OPS.map((op) => ({ c, op, times: [], rates: [] })));
  console.log(`# rt.secrets benchmark\n`);
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(
    `gnome-keyring on a private D-Bus session bus; ${ROUNDS} rounds after ${WARMUP} warm-up rounds; each round, per contestant and operation, ${COUNT} sequential calls on one pair (a 44-byte value)\n`,
  );
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const op of OPS) {
      for (const row of shuffle(rows.filter((r) => r.op === op))) {
        const times = await row.c.peer.ask({ op, count: COUNT });
        if (round < WARMUP) continue;
        row.times.push(median(times));
        row.rates.push((1000 * times.length) / times.reduce((a, b) => a + b, 0));
      }
    }
  }
  for (const c of all) c.peer.stop();

  const find = (id, op) => rows.find((r) => r.c.id === id && r.op === op);
  for (const op of OPS) {
    console.log(`## ${op}\n`);
    console.log(`| contestant | median ms | ops/s (sequential) | / raw module (per-round median) |`);
    console.log(`| --- | ---: | ---: | ---: |`);
    for (const row of rows.filter((r) => r.op === op)) {
      const raw = find("raw", op);
      console.log(
        `| ${row.c.name} | ${median(row.times).toFixed(3)} | ${Math.round(median(row.rates))} | ${raw ? `${pairwise(row, raw).toFixed(2)}×` : "-"} |`,
      );
    }
    console.log();
  }
  console.log(`## Target (per-round ratio, median)\n`);
  const [rtGet, rawGet] = [find("rt", "get"), find("raw", "get")];
  if (!rtGet || !rawGet) console.log("- SKIP rt get vs raw @napi-rs/keyring get: a contestant did not run");
  else {
    const r = pairwise(rtGet, rawGet);
    console.log(`- ${r <= 1.1 ? "PASS" : "FAIL"} rt.secrets.get vs raw AsyncEntry.getPassword: ${r.toFixed(3)}× (target ≤ 1.10×)`);
  }
}

if (!process.env.WITH_KEYRING_DIR) {
  // Re-run inside a private keyring; the harness stops it afterwards.
  const missing = ["dbus-daemon", "gnome-keyring-daemon", "secret-tool"].filter((p) => spawnSync("sh", ["-c", `command -v ${p}`]).status !== 0);
  if (missing.length || !existsSync(HARNESS)) console.log(`benchmark skipped: needs ${missing.join(", ")} (Debian: dbus gnome-keyring libsecret-tools)`);
  else spawnSync("bash", [HARNESS, NODE, ...process.argv.slice(1)], { stdio: "inherit" });
} else {
  await main().catch((error) => console.log(`benchmark aborted: ${error.stack ?? error}`));
}
process.exitCode = 0;
