// A private D-Bus session bus with gnome-keyring for the secrets tests: test/support/with-keyring.sh
// runs a command that reports the bus address and waits for its stdin to close, so one keyring
// serves a whole suite and is torn down (by the harness, only its own PIDs) when the suite ends.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { REPO } from "./rt.mjs";

const HARNESS = path.join(REPO, "test", "support", "with-keyring.sh");
const PROGRAMS = ["dbus-daemon", "dbus-send", "gnome-keyring-daemon", "secret-tool"];

/** Why the keyring tests cannot run here (Debian packages dbus gnome-keyring libsecret-tools), or undefined. */
export function keyringUnavailable() {
  const missing = PROGRAMS.filter((program) => spawnSync("sh", ["-c", `command -v ${program}`]).status !== 0);
  return missing.length ? `needs ${missing.join(", ")} (Debian: dbus gnome-keyring libsecret-tools)` : undefined;
}

/**
 * Starts a keyring; resolves { env, dir, daemonPid, stop }. `env` has the bus address (merge it
 * into a child's environment), `dir` holds the keyring files. With busOnly, no Secret Service.
 */
export function startKeyring({ busOnly = false } = {}) {
  const report = 'printf "%s\\n%s\\n%s\\n" "$DBUS_SESSION_BUS_ADDRESS" "${WITH_KEYRING_DIR:-}" "${WITH_KEYRING_DAEMON_PID:-}"; exec cat >/dev/null';
  const child = spawn("bash", [HARNESS, ...(busOnly ? ["--bus-only"] : []), "sh", "-c", report], { stdio: ["pipe", "pipe", "pipe"] });
  const closed = new Promise((resolve) => child.on("close", resolve));
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
      const lines = stdout.split("\n");
      if (lines.length < 4) return;
      const [address, dir, pid] = lines;
      resolve({
        env: { DBUS_SESSION_BUS_ADDRESS: address },
        dir,
        daemonPid: pid ? Number(pid) : undefined,
        // Rejects with the harness's report if a daemon ended before the harness stopped it: the
        // cause of the failures before it, which the test's own assertions cannot see.
        stop: () => {
          child.stdin.end();
          return closed.then(() => {
            if (stderr.includes("with-keyring:")) throw new Error(stderr.trim());
          });
        },
      });
    });
    closed.then((code) => reject(new Error(`with-keyring.sh exited with ${code} before the keyring was ready: ${stderr}`)));
  });
}

/** A command against the keyring (secret-tool, dbus-send): { code, stdout, stderr }. */
export function inKeyring(keyring, command, args, input) {
  // secret-tool reads its arguments in the locale's charset: under C, a name beyond ASCII is refused.
  const env = { ...process.env, ...keyring.env, LC_ALL: "C.UTF-8" };
  const result = spawnSync(command, args, { env, input, encoding: "utf8", timeout: 30_000 });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
