// One contestant of bench/secrets.mjs, kept running between rounds: `<rt|raw|bun>`. It stores
// its own pair, says "ready", then answers each command line {"op","count"} on stdin with the
// latencies (ms) of `count` sequential operations, as JSON. Runs under rt, node and bun.
import { createInterface } from "node:readline";

const kind = process.argv[2];
const service = `bench-${kind}`;
const name = "user";
const VALUE = "bench-token-0123456789abcdef0123456789abcdef";

async function contestant() {
  if (kind === "rt") {
    const { secrets } = globalThis.rt;
    return { get: () => secrets.get(service, name), set: (v) => secrets.set(service, name, v), delete: () => secrets.delete(service, name) };
  }
  if (kind === "bun") {
    const { secrets } = globalThis.Bun;
    return {
      get: () => secrets.get({ service, name }),
      set: (value) => secrets.set({ service, name, value }),
      delete: () => secrets.delete({ service, name }),
    };
  }
  // The raw module as its README suggests using it: one AsyncEntry, reused, on the main thread.
  const { createRequire } = await import("node:module");
  const { AsyncEntry } = createRequire(new URL("../runtime/package.json", import.meta.url))("@napi-rs/keyring");
  const entry = new AsyncEntry(service, name, { linux: { store: "secret-service" } });
  return { get: () => entry.getPassword(), set: (v) => entry.setPassword(v), delete: () => entry.deletePassword() };
}

const api = await contestant();
await api.set(VALUE);
if ((await api.get()) !== VALUE) throw new Error(`${kind}: the value did not round-trip`);
process.stdout.write("ready\n");
for await (const line of createInterface({ input: process.stdin })) {
  const { op, count } = JSON.parse(line);
  const times = [];
  for (let i = 0; i < count; i++) {
    if (op === "delete") await api.set(VALUE); // something to delete, untimed
    const start = performance.now();
    const result = await api[op](VALUE);
    times.push(performance.now() - start);
    if ((op === "get" && result !== VALUE) || (op === "delete" && result !== true)) throw new Error(`${kind} ${op} returned ${result}`);
  }
  if (op === "delete") await api.set(VALUE); // leave the pair in place for the next gets
  process.stdout.write(`${JSON.stringify(times)}\n`);
}
