// rt's own threads are not the user's to debug: under the adapter (which follows every worker and
// holds each at its start) rt.secrets answers as without a debugger, auto-install installs, and
// the threads list shows the program's threads only: never rt's credential store thread, its
// installer or its inspector's server.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { keyringUnavailable, startKeyring } from "../../runtime/test/keyring.mjs";
import { skipUnlessCI } from "../../runtime/test/rt.mjs";
import { startRegistry } from "../../test/support/registry.mjs";
import { DapClient, FIXTURES, REPO } from "./dap.mjs";

const SECRETS = path.join(FIXTURES, "internals", "secrets.ts");

describe("rt's own threads under the debugger", () => {
  const unavailable = keyringUnavailable();
  let keyring;
  before(async () => {
    if (!unavailable) keyring = await startKeyring();
  });
  after(() => keyring?.stop());

  test("rt.secrets answers in normal time; threads lists main and the program's worker, not rt's store thread", async (t) => {
    if (unavailable) return skipUnlessCI(t, unavailable);
    const dap = DapClient.start(t);
    await dap.launch({ program: SECRETS, env: keyring.env });
    const stopped = await dap.stopped();
    assert.equal(stopped.reason, "debugger statement");
    assert.equal((await dap.topFrame()).line, 12);
    // Held at its start, the store thread made every call fail after 10 s (ERR_SECRETS_TIMEOUT).
    const [, ms] = /^secret s3cret in (\d+) ms$/m.exec(dap.output("stdout")) ?? assert.fail(`no secret in:\n${dap.output()}`);
    assert.ok(Number(ms) < 5000, `${ms} ms`);
    const { threads } = await dap.request("threads");
    assert.equal(threads.length, 2, JSON.stringify(threads));
    assert.equal(threads[0].name, "main");
    assert.doesNotMatch(threads[1].name, /rt\.secrets|inspector|installer/);
    await dap.request("continue", { threadId: 1 });
    assert.equal((await dap.event("exited")).exitCode, 0);
  });
});

describe("auto-install under the debugger", () => {
  let registry;
  before(async () => {
    registry = await startRegistry();
    await registry.publish(path.join(REPO, "test", "fixtures", "install", "packages", "rt-greet-1.0.0"));
  });
  after(() => registry?.stop());

  test("a bare import installs from the registry and the program runs to its breakpoint", async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), "rt-debug-install-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const program = path.join(dir, "main.ts");
    writeFileSync(program, 'import greet from "rt-greet";\n\nconst text: string = greet("debugger");\nconsole.log(text);\n');
    const dap = DapClient.start(t);
    const env = { npm_config_registry: registry.url, npm_config_fetch_retries: "0", XDG_CACHE_HOME: path.join(dir, "cache") };
    const started = Date.now();
    await dap.launch({ program, env }, { breakpoints: { [program]: [4] } });
    // Held at its start, the installer thread never answered: the import waited its 5 minutes.
    assert.equal((await dap.stopped()).reason, "breakpoint");
    assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
    const frame = await dap.topFrame();
    assert.equal((await dap.request("evaluate", { expression: "text", frameId: frame.id, context: "watch" })).result, '"hello debugger from rt-greet 1.0.0"');
    assert.deepEqual((await dap.request("threads")).threads, [{ id: 1, name: "main" }]);
    await dap.request("continue", { threadId: 1 });
    assert.equal((await dap.event("exited")).exitCode, 0);
    assert.equal(dap.output("stdout"), "hello debugger from rt-greet 1.0.0\n");
  });
});
