// `npm run compat`: every compatibility case under rt, bun, tsx and node (Node 24's own type
// stripping), side by side, then the cases where rt fails but bun or tsx passes, with rt's error,
// and those where rt is ahead (it passes, bun and tsx both fail).
//
//   node test/compat/compare.mjs [--only rt,bun] [--filter lodash] [--jobs 2] [--rt path/to/runtime/bin/rt.cjs]
// A report: exits 0 whatever the results (the pass/fail gate for rt is test/compat.test.mjs).
import { parseArgs } from "node:util";
import { KNOWN_FAILURES } from "./known-failures.mjs";
import { install, listCases, pool, runCase, runtimes } from "./suite.mjs";

const { values } = parseArgs({
  options: { only: { type: "string" }, filter: { type: "string" }, jobs: { type: "string", default: "2" }, rt: { type: "string" } },
});
const installError = install();
if (installError) {
  console.log(installError);
  process.exit(1);
}
const all = runtimes({ rtBin: values.rt });
const ids = values.only ? values.only.split(",") : Object.keys(all);
for (const id of ids) if (all[id]?.missing) console.log(`skipped ${id}: ${all[id].missing}`);
const present = ids.filter((id) => all[id] && !all[id].missing);
const cases = listCases().filter((c) => !values.filter || c.name.includes(values.filter));

console.log(`# rt compatibility suite: ${cases.length} cases\n`);
console.log(present.map((id) => `${id} ${all[id].version}`).join(", ") + (values.rt ? ` (rt: ${all.rt.pre[0]})` : "") + "\n");

const jobs = Math.max(1, Number(values.jobs) || 2);
const results = await pool(cases, jobs, async (c) => {
  const row = {};
  for (const id of present) row[id] = await runCase(all[id], c);
  return row;
});

const width = Math.max(...cases.map((c) => c.name.length), 4);
const mark = (r) => (r.ok ? "pass" : "FAIL");
console.log(`${"case".padEnd(width)}  ${present.map((id) => id.padEnd(4)).join("  ")}`);
console.log(`${"-".repeat(width)}  ${present.map(() => "----").join("  ")}`);
cases.forEach((c, i) => console.log(`${c.name.padEnd(width)}  ${present.map((id) => mark(results[i][id]).padEnd(4)).join("  ")}`));
console.log(`${"-".repeat(width)}  ${present.map(() => "----").join("  ")}`);
const totals = present.map((id) => `${results.filter((r) => r[id].ok).length}`.padStart(4));
console.log(`${`passed (of ${cases.length})`.padEnd(width)}  ${totals.join("  ")}\n`);

if (present.includes("rt")) {
  const behind = cases.flatMap((c, i) => {
    const r = results[i];
    const peers = ["bun", "tsx"].filter((id) => r[id]?.ok);
    return !r.rt.ok && peers.length ? [{ c, peers, reason: r.rt.reason }] : [];
  });
  console.log(`## rt fails, bun or tsx passes: ${behind.length}\n`);
  for (const { c, peers, reason } of behind) {
    const known = KNOWN_FAILURES[c.name] ? ` [known, ${KNOWN_FAILURES[c.name].split(": ")[0]}]` : "";
    console.log(`- ${c.name} (passes under ${peers.join(", ")}): ${reason}${known}`);
  }
  const ahead = cases.filter((_, i) => results[i].rt.ok && ["bun", "tsx"].every((id) => results[i][id] && !results[i][id].ok)).map((c) => c.name);
  console.log(`\n## rt passes, bun and tsx both fail (ahead): ${ahead.length}\n`);
  for (const name of ahead) console.log(`- ${name}`);
  const fixed = cases.filter((c, i) => KNOWN_FAILURES[c.name] && results[i].rt.ok).map((c) => c.name);
  if (fixed.length) console.log(`\nKnown failures that pass now (remove them from test/compat/known-failures.mjs): ${fixed.join(", ")}`);
}
if (process.env.COMPAT_VERBOSE) {
  cases.forEach((c, i) => {
    for (const id of present)
      if (!results[i][id].ok)
        console.log(`\n### ${c.name} under ${id}: ${results[i][id].reason}\n${results[i][id].stderr.trim().split("\n").slice(0, 12).join("\n")}`);
  });
}
