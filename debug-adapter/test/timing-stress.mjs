// DAP under any timing, many times, on a loaded machine (not part of npm test: minutes long).
// Runs each order of timing.mjs (and rt slow to start) `--runs` times (default 50) with two busy
// processes beside it (`--no-load` for none), counts the sessions that did not stop at their
// breakpoint (lost) and prints the median and 90th percentile of launch -> first stop.
// Usage: node debug-adapter/test/timing-stress.mjs [--runs N] [--no-load]
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { ORDERINGS, runOrdering, slowRt } from "./timing.mjs";

const { values } = parseArgs({ options: { runs: { type: "string", default: "50" }, "no-load": { type: "boolean", default: false } } });
const runs = Number(values.runs);
const busy = values["no-load"] ? [] : [0, 1].map(() => spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
const stopBusy = () => {
  for (const child of busy) child.kill();
};
process.on("exit", stopBusy);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const cases = [
  ...Object.keys(ORDERINGS).map((ordering) => [ordering, ordering, {}]),
  ["rt slow to start (1 s)", "breakpoints after launch's answer", { runtimeExecutable: slowRt(1000) }],
];
let lostTotal = 0;
console.log(`${runs} runs per order, ${busy.length} busy processes beside them`);
for (const [name, ordering, options] of cases) {
  const times = [];
  let lost = 0;
  for (let i = 0; i < runs; i++) {
    const { stopped, ms } = await runOrdering(undefined, ordering, options).catch((error) => {
      console.log(`  ${name} run ${i + 1}: ${error.message.split("\n")[0]}`);
      return { stopped: false, ms: Number.NaN };
    });
    if (stopped) times.push(ms);
    else lost++;
  }
  lostTotal += lost;
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(36)} lost ${lost}/${runs}  launch -> stop median ${Math.round(percentile(times, 0.5))} ms, p90 ${Math.round(percentile(times, 0.9))} ms`,
  );
}
stopBusy();
process.exitCode = lostTotal === 0 ? 0 : 1;
