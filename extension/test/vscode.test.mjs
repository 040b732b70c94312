// The extension in a real VS Code: the .vsix is built, installed into code-server and exercised
// (1) by the integration tests in test/host/, run inside code-server's extension host with their
// results returned here, one subtest each, and (2) through the UI in headless Chromium.
// Needs code-server (installed into a cache directory on first use), Chromium and a keyring;
// where one is missing the test skips with the reason, and under CI=true that is a failure.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { format } from "node:util";
import path from "node:path";
import { test } from "node:test";
import { keyringUnavailable, startKeyring } from "../../runtime/test/keyring.mjs";
import { skipUnlessCI } from "../../runtime/test/rt.mjs";
import { EXTENSION, codeServerUnavailable, installCodeServer, openBrowser, startCodeServer } from "./e2e/code-server.mjs";
import { driveBrokenSetup, driveUi } from "./e2e/ui.mjs";
import { makeWorkspace } from "./e2e/workspace.mjs";

const KEEP = process.env.RT_E2E_KEEP === "1";
// RT_E2E_ONLY=host or =ui runs one half (for working on it).
const ONLY = process.env.RT_E2E_ONLY;
const ARTIFACTS = path.join(EXTENSION, "..", "test", ".artifacts", "vscode");

/** Builds the extension and packs the .vsix (what `npm run package` does); returns its path. */
function packageVsix() {
  for (const script of ["build.mjs", "scripts/package.mjs"]) {
    const result = spawnSync(process.execPath, [script], { cwd: EXTENSION, encoding: "utf8" });
    assert.equal(result.status, 0, `${script} failed:\n${result.stdout}${result.stderr}`);
  }
  const { name, version } = JSON.parse(readFileSync(path.join(EXTENSION, "package.json"), "utf8"));
  return path.join(EXTENSION, `${name}-${version}.vsix`);
}

/** Opens the workbench with the extension's tests as extensionTestsPath; resolves with their results. */
async function runHostTests(server, workspace, dir, results) {
  const payload = [
    ["extensionDevelopmentPath", `vscode-remote://${server.authority}${server.installed}`],
    ["extensionTestsPath", `vscode-remote://${server.authority}${path.join(EXTENSION, "test", "host", "index.cjs")}`],
  ];
  const { context, page } = await openBrowser(path.join(dir, "chromium-host-tests"));
  try {
    let exit;
    const exited = new Promise((resolve) => (exit = resolve));
    const lines = [];
    await page.exposeFunction("codeAutomationLog", (type, args) => {
      if (type !== "error") lines.push(format(...(args ?? [])));
    });
    await page.exposeFunction("codeAutomationExit", (code) => exit(code));
    await page.goto(`${server.base}/?workspace=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    const timer = setTimeout(() => exit("timeout"), 300_000);
    const code = await exited;
    clearTimeout(timer);
    const output = lines.join("\n");
    let parsed;
    try {
      parsed = JSON.parse(readFileSync(results, "utf8"));
    } catch {
      throw new Error(`the extension tests wrote no results (exit ${code}):\n${output}\n${server.log.slice(-4000)}`);
    }
    return { code, output, ...parsed };
  } finally {
    await context.close();
  }
}

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
    env: { ...keyring.env, RT_E2E_RESULTS: results, ...(process.env.RT_E2E_GREP ? { RT_E2E_GREP: process.env.RT_E2E_GREP } : {}) },
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

  if (ONLY !== "ui") await t.test("integration tests inside the extension host", async (t) => {
    const host = await runHostTests(server, workspace, dir, results);
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

  if (ONLY !== "host") await t.test("the UI in headless Chromium: Run Script lens, gutter breakpoint + F5, secrets panel", async (t) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const started = Date.now();
    await driveUi({ server, workspace, profile: path.join(dir, "chromium-ui"), artifacts: ARTIFACTS, log: (line) => t.diagnostic(`${((Date.now() - started) / 1000).toFixed(1)} s: ${line}`) });
    t.diagnostic(`screenshots in ${ARTIFACTS}`);
  });

  if (ONLY !== "host") await t.test("a broken setup in the UI: rt.runtimePath names no rt and there is no D-Bus", async (t) => {
    const broken = await startCodeServer({
      codeServer,
      dir: path.join(dir, "code-server-broken"),
      vsix,
      env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(dir, "no-bus")}` },
      machineSettings: { "rt.runtimePath": "/nonexistent/rt" },
    });
    try {
      const started = Date.now();
      await driveBrokenSetup({ server: broken, workspace, profile: path.join(dir, "chromium-broken"), artifacts: ARTIFACTS, log: (line) => t.diagnostic(`${((Date.now() - started) / 1000).toFixed(1)} s: ${line}`) });
    } finally {
      await broken.stop();
    }
  });
});
