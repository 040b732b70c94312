// The extension in a real VS Code: the .vsix is built, installed into code-server and exercised
// (1) by the integration tests in test/host/, run inside code-server's extension host with their
// results returned here, one subtest each, and (2) through the UI in headless Chromium.
// Needs code-server (installed into a cache directory on first use), Chromium and a keyring;
// where one is missing the test skips with the reason, and under CI=true that is a failure.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { keyringUnavailable, startKeyring } from "../../runtime/test/keyring.mjs";
import { skipUnlessCI } from "../../runtime/test/rt.mjs";
import { codeServerUnavailable, installCodeServer, startCodeServer } from "./e2e/code-server.mjs";
import { packageVsix, runHostTests } from "./e2e/host.mjs";
import { driveBrokenSetup, driveOldRuntime, driveUi } from "./e2e/ui.mjs";
import { makeWorkspace } from "./e2e/workspace.mjs";

const KEEP = process.env.RT_E2E_KEEP === "1";
// RT_E2E_ONLY=host or =ui runs one half (for working on it).
const ONLY = process.env.RT_E2E_ONLY;
const ARTIFACTS = fileURLToPath(new URL("../../test/.artifacts/vscode/", import.meta.url));

test("the rt extension in a real VS Code (code-server)", async (t) => {
  const missing = codeServerUnavailable() ?? keyringUnavailable();
  if (missing) return skipUnlessCI(t, missing);
  const codeServer = installCodeServer();
  const vsix = packageVsix();
  const dir = mkdtempSync(path.join(tmpdir(), "rt-vscode-e2e-"));
  const keyring = await startKeyring();
  const results = path.join(dir, "host-results.json");
  const workspace = makeWorkspace(path.join(dir, "workspace"));
  const server = await startCodeServer({
    codeServer,
    dir: path.join(dir, "code-server"),
    vsix,
    env: {
      ...keyring.env,
      RT_E2E_RESULTS: results,
      // Where code-server keeps its logs, the extension's output channel among them (test/host/support.cjs).
      RT_E2E_LOGS: path.join(dir, "code-server", "user-data", "logs"),
      ...(process.env.RT_E2E_GREP ? { RT_E2E_GREP: process.env.RT_E2E_GREP } : {}),
    },
    extraArgs: ["--vscode-option", "enable-smoke-test-driver"],
  });
  t.after(async () => {
    await server.stop();
    await keyring.stop();
    if (KEEP) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  });

  await t.test("the .vsix installs into code-server", () => {
    assert.match(server.installed, /rt\.rt-vscode-0\.1\.0$/);
  });

  if (ONLY !== "ui")
    await t.test("integration tests inside the extension host", async (t) => {
      const host = await runHostTests({ server, workspace, profile: path.join(dir, "chromium-host-tests"), results });
      t.diagnostic(`figures measured in the extension host: ${JSON.stringify(host.metrics)}`);
      assert.ok(host.tests.length > 0, `no test ran:\n${host.output}`);
      for (const result of host.tests) {
        await t.test(result.title, (t) => {
          if (result.state === "skipped") return skipUnlessCI(t, `skipped inside the extension host`);
          if (result.state === "failed") throw new Error(result.error);
        });
      }
      assert.equal(host.code, 0, host.output);
    });

  if (ONLY !== "host")
    await t.test("the UI in headless Chromium: Run Script lens, gutter breakpoint + F5, Run File button, rt in a terminal, secrets panel", async (t) => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const started = Date.now();
      await driveUi({
        server,
        workspace,
        profile: path.join(dir, "chromium-ui"),
        artifacts: ARTIFACTS,
        log: (line) => t.diagnostic(`${((Date.now() - started) / 1000).toFixed(1)} s: ${line}`),
      });
      t.diagnostic(`screenshots in ${ARTIFACTS}`);
    });

  if (ONLY !== "host")
    await t.test("a broken setup in the UI: rt.runtimePath names no rt and there is no D-Bus", async (t) => {
      const broken = await startCodeServer({
        codeServer,
        dir: path.join(dir, "code-server-broken"),
        vsix,
        env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(dir, "no-bus")}` },
        machineSettings: { "rt.runtimePath": "/nonexistent/rt" },
      });
      try {
        const started = Date.now();
        await driveBrokenSetup({
          server: broken,
          workspace,
          profile: path.join(dir, "chromium-broken"),
          artifacts: ARTIFACTS,
          log: (line) => t.diagnostic(`${((Date.now() - started) / 1000).toFixed(1)} s: ${line}`),
        });
      } finally {
        await broken.stop();
      }
    });

  if (ONLY !== "host")
    await t.test("a too old rt in rt.runtimePath: the notification says so, with Configure path", async (t) => {
      const oldRt = path.join(dir, "old-rt");
      writeFileSync(oldRt, "#!/bin/sh\necho 0.0.9\n", { mode: 0o755 });
      const old = await startCodeServer({ codeServer, dir: path.join(dir, "code-server-old"), vsix, machineSettings: { "rt.runtimePath": oldRt } });
      try {
        await driveOldRuntime({ server: old, workspace, profile: path.join(dir, "chromium-old"), artifacts: ARTIFACTS, log: (line) => t.diagnostic(line) });
      } finally {
        await old.stop();
      }
    });
});
