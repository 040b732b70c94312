// The extension's tests inside VS Code: the .vsix as it ships, and the test suite in test/host/
// run by code-server's extension host (extensionTestsPath), its results read back from the JSON
// file the extension host writes (RT_E2E_RESULTS in code-server's environment).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { format } from "node:util";
import { vsixPath } from "../../scripts/vsix.mjs";
import { EXTENSION, openBrowser } from "./code-server.mjs";

/**
 * Builds the extension and packs the .vsix of each target (what `npm run package` does; this
 * platform's only by default); returns the path of this platform's, the one VS Code installs.
 */
export function packageVsix(targets = [`${process.platform}-${process.arch}`]) {
  for (const args of [["build.mjs"], ["scripts/package.mjs", ...targets.flatMap((target) => ["--target", target])]]) {
    const result = spawnSync(process.execPath, args, { cwd: EXTENSION, encoding: "utf8" });
    assert.equal(result.status, 0, `${args[0]} failed:\n${result.stdout}${result.stderr}`);
    // vsce warns when an extension ships unbundled JavaScript (thousands of files).
    assert.doesNotMatch(result.stdout + result.stderr, /WARNING/, `${args[0]} warned:\n${result.stdout}${result.stderr}`);
  }
  return vsixPath();
}

/** Opens the workbench with the extension's tests as extensionTestsPath; resolves with their results. */
export async function runHostTests({ server, workspace, profile, results }) {
  const payload = [
    ["extensionDevelopmentPath", `vscode-remote://${server.authority}${server.installed}`],
    ["extensionTestsPath", `vscode-remote://${server.authority}${path.join(EXTENSION, "test", "host", "index.cjs")}`],
  ];
  const { context, page } = await openBrowser(profile);
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
