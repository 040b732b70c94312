// A real VS Code for the extension's tests: code-server (installed once per version into a cache
// directory by install-code-server.sh) serving the workbench to headless Chromium, driven with
// playwright-core. Notes: shared/notes/vscode-e2e.md.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../../test/support/servers.mjs";
import { CHROMIUM_ARGS } from "../../../test/support/chromium.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const EXTENSION = path.resolve(HERE, "../..");
const REPO = path.dirname(EXTENSION);
// code-server runs on the repository's Node 24 (the `node` package's binary).
const NODE24 = path.join(REPO, "node_modules", "node", "bin");
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Why the real-VS-Code tests cannot run here, or undefined. */
export function codeServerUnavailable() {
  if (process.platform !== "linux" || process.arch !== "x64") return `code-server tests run on linux-x64 (this is ${process.platform}-${process.arch})`;
  if (spawnSync(CHROMIUM, ["--version"]).status !== 0) return `needs Chromium at ${CHROMIUM} (Debian: chromium)`;
  return undefined;
}

/** The code-server executable, installed first if needed (a few minutes, once per machine). */
export function installCodeServer() {
  const result = spawnSync("bash", [path.join(HERE, "install-code-server.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (result.status !== 0) throw new Error(`installing code-server failed (exit ${result.status}); see the output above`);
  return result.stdout.trim().split("\n").at(-1);
}

const USER_SETTINGS = {
  "workbench.startupEditor": "none",
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "workbench.tips.enabled": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.colorTheme": "Default Dark Modern",
  "terminal.integrated.enablePersistentSessions": false,
  "git.enabled": false,
  // The DOM renderer keeps the terminal's text in the page, where the UI test reads it.
  "terminal.integrated.gpuAcceleration": "off",
};

/**
 * Starts code-server on a free port with a fresh profile under `dir`, after installing `vsix`.
 * `env` is added to its environment (its extension host inherits it); `machineSettings` are the
 * remote machine's settings (where machine-scoped ones such as rt.runtimePath are read).
 * Resolves once HTTP answers.
 */
export async function startCodeServer({ codeServer, dir, vsix, env = {}, machineSettings = {}, extraArgs = [] }) {
  const userData = path.join(dir, "user-data");
  const extensions = path.join(dir, "extensions");
  mkdirSync(path.join(userData, "User"), { recursive: true });
  mkdirSync(extensions, { recursive: true });
  mkdirSync(path.join(userData, "Machine"), { recursive: true });
  writeFileSync(path.join(userData, "Machine", "settings.json"), JSON.stringify(machineSettings, null, 2));
  writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify(USER_SETTINGS, null, 2));
  const environment = {
    ...process.env,
    PATH: `${NODE24}${path.delimiter}${process.env.PATH}`,
    // code-server writes a config with a password under XDG_CONFIG_HOME otherwise.
    XDG_CONFIG_HOME: path.join(dir, "xdg-config"),
    XDG_DATA_HOME: path.join(dir, "xdg-data"),
    ...env,
  };
  const common = ["--user-data-dir", userData, "--extensions-dir", extensions];
  const install = spawnSync(codeServer, [...common, "--install-extension", vsix, "--force"], { env: environment, encoding: "utf8", timeout: 120_000 });
  if (install.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (exit ${install.status}):\n${install.stdout}${install.stderr}`);
  const port = await freePort();
  const args = [
    "--bind-addr",
    `127.0.0.1:${port}`,
    "--auth",
    "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
    ...common,
    ...extraArgs,
  ];
  const child = spawn(codeServer, args, { env: environment, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => (log += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => (log += chunk));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const base = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 250) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}:\n${log}`);
    if (
      await fetch(`${base}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (waited > 60_000) throw new Error(`code-server did not answer on ${base} within 60 s:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    base,
    authority: `127.0.0.1:${port}`,
    /** The folder the extension was installed to. */
    installed: path.join(extensions, readdirSync(extensions).find((name) => name.startsWith("rt.rt-vscode-")) ?? "rt-vscode-not-installed"),
    extensions,
    get log() {
      return log;
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Headless Chromium with a profile of its own (Playwright refuses --user-data-dir in args). */
export async function openBrowser(profile, { viewport = { width: 1400, height: 900 } } = {}) {
  const { chromium } = await import("playwright-core");
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    permissions: ["clipboard-read", "clipboard-write"],
    args: [...CHROMIUM_ARGS, "--disable-dev-shm-usage"],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page };
}
