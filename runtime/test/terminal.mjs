// Runs rt on a real pseudo-terminal: under tmux (the rendered screen, as a person sees it) or
// under script(1) (the raw bytes, escape sequences included). Both are Debian packages listed in
// .ci/apt-packages.txt; locally a missing one skips the test with the reason (under CI it fails).
import { spawnSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { rtArgv, skipUnlessCI } from "./rt.mjs";

/** A POSIX-shell word for `value` (Python's shlex.quote rule). */
export function shellWord(value) {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'"'"'`)}'`;
}

/** `rt ...args` as a shell command line (rt run by the Node that runs the tests, or its compiled front). */
export function rtCommand(args) {
  return rtArgv(args).map(shellWord).join(" ");
}

function available(t, tool) {
  if (spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0) return true;
  skipUnlessCI(t, `${tool} is not installed (Debian package ${tool === "script" ? "bsdutils" : tool})`);
  return false;
}

/** The environment of a terminal session: colours allowed, the caller's PATH. */
function terminalEnv(env) {
  const inherited = { ...process.env };
  delete inherited.NO_COLOR;
  return { ...inherited, TERM: "xterm-256color", ...env };
}

let sessions = 0;

/**
 * Runs `command` (a shell command line) in a fresh tmux server with a `width`×`height` terminal;
 * `keys` are typed once `waitFor` shows on screen. Resolves to the whole screen plus scrollback,
 * ending with `[exit code: N]`; undefined when tmux is missing (the test is then skipped).
 */
export async function inTmux(t, command, { cwd, env = {}, width = 120, height = 40, waitFor, keys } = {}) {
  if (!available(t, "tmux")) return undefined;
  const socket = `rt-test-${process.pid}-${++sessions}`;
  const tmux = (...args) => spawnSync("tmux", ["-L", socket, ...args], { cwd, env: terminalEnv(env), encoding: "utf8" });
  t.after(() => tmux("kill-server"));
  const script = `${command}; echo "[exit code: $?]"; sleep 600`;
  const started = tmux("new-session", "-d", "-x", String(width), "-y", String(height), "-c", cwd, "sh", "-c", script);
  if (started.status !== 0) throw new Error(`tmux: ${started.stderr}`);
  const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "0").stdout.replace(/\n+$/, "\n");
  let typed = keys === undefined;
  for (let waited = 0; waited < 30_000; waited += 50) {
    const text = screen();
    if (!typed && text.includes(waitFor)) {
      tmux("send-keys", "-t", "0", ...keys);
      typed = true;
    }
    if (/\[exit code: \d+\]/.test(text)) return text.slice(0, text.indexOf("]", text.indexOf("[exit code:")) + 2);
    await sleep(50);
  }
  throw new Error(`tmux: no exit code after 30 s; screen:\n${screen()}`);
}

/** Runs `command` under script(1): resolves to { code, output } with the terminal's raw bytes. */
export function underScript(t, command, { cwd, env = {} } = {}) {
  if (!available(t, "script")) return undefined;
  const result = spawnSync("script", ["-q", "-e", "-c", command, "/dev/null"], { cwd, env: terminalEnv(env), encoding: "utf8", timeout: 60_000 });
  return { code: result.status, output: result.stdout.replaceAll("\r\n", "\n") };
}
