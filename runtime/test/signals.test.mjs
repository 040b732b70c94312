// Nothing of a script outlives a signal to rt's whole process group: SIGKILL (`kill -KILL --
// -PGID`, a cancelled CI job), SIGQUIT (Ctrl-\, which the terminal sends to its foreground group)
// and coreutils `timeout -s KILL`, which signals the group it made for itself and its command.
// Each path that runs scripts is checked: the compiled front (`rt run`), the Node runner (`rt run`
// on the Node CLI) and `--filter` (workspaces, on both), with npm run beside them as the peer. The script
// is a shell with a background and a foreground `sleep` (`sh -c 'sleep N & sleep N'`); N is a
// number unique to the case, so /proc/*/cmdline tells its processes from every other.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { NATIVE_FRONT, RT_BIN, skipUnlessCI, tempDir } from "./rt.mjs";

const linux = process.platform === "linux";

/** A fresh project whose `tree` script sleeps for a duration unique to it: its marker. */
function project(t, { workspace }) {
  const marker = `1000.${String(Math.random()).slice(2, 11)}`;
  const scripts = { tree: `sh -c 'sleep ${marker} & sleep ${marker}'` };
  const root = tempDir(t, "rt-signals-");
  if (!workspace) {
    writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "solo", scripts }));
    return { root, marker, scripts: 1 };
  }
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }));
  for (const name of ["one", "two"]) {
    mkdirSync(path.join(root, "packages", name), { recursive: true });
    writeFileSync(path.join(root, "packages", name, "package.json"), JSON.stringify({ name, scripts }));
  }
  return { root, marker, scripts: 2 };
}

/** The live processes whose command line holds `marker`, as [pid, argv]. */
function processesOf(marker) {
  const found = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (argv.includes(marker) || argv.some((arg) => arg.includes(` ${marker}`))) found.push([Number(pid), argv]);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

const sleepers = (marker) => processesOf(marker).filter(([, argv]) => argv[0] === "sleep").length;

/** What is left of the script once it had time to end: none within 5 s, or what stays. */
async function leftOver(marker, { expected }) {
  for (let waited = 0; waited < 5000 && processesOf(marker).length !== expected; waited += 50) await sleep(50);
  return processesOf(marker).length;
}

/**
 * Starts `argv` in a process group of its own in `root`, waits until every script's two sleeps
 * run, sends `how` to the group (for "timeout", `timeout -s KILL` does it) and resolves to how
 * the command ended.
 */
async function runAndKill(t, argv, { root, marker, scripts }, how) {
  const command = how === "timeout" ? ["timeout", "-s", "KILL", "4", ...argv] : argv;
  const child = spawn(command[0], command.slice(1), { cwd: root, detached: true, stdio: "ignore", env: { ...process.env, NO_COLOR: "1" } });
  const ended = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  t.after(() => {
    for (const [pid] of processesOf(marker)) process.kill(pid, "SIGKILL");
  });
  let exit;
  ended.then((how) => (exit = how));
  let running = 0;
  // `timeout` must not fire before the scripts are up: 4 s leaves a loaded machine room.
  while (exit === undefined && running < 2 * scripts) {
    await sleep(20);
    running = sleepers(marker);
  }
  assert.equal(running, 2 * scripts, `every script started before ${how} (${JSON.stringify(exit)})`);
  if (how !== "timeout") process.kill(-child.pid, how);
  return ended;
}

const paths = {
  "rt run (compiled front)": { argv: [NATIVE_FRONT, "run", "tree"], workspace: false, needs: NATIVE_FRONT },
  "rt run (Node runner)": { argv: [process.execPath, "--", RT_BIN, "run", "tree"], workspace: false },
  "rt --filter (compiled front)": { argv: [NATIVE_FRONT, "--filter", "*", "tree"], workspace: true, needs: NATIVE_FRONT },
  "rt --filter (Node runner)": { argv: [process.execPath, "--", RT_BIN, "--filter", "*", "tree"], workspace: true },
};

describe("a signal to rt's process group leaves nothing of the script", { skip: !linux && "Linux: /proc" }, () => {
  for (const [name, { argv, workspace, needs }] of Object.entries(paths)) {
    for (const signal of ["SIGKILL", "SIGQUIT"]) {
      test(`${name}: ${signal} to the group`, { timeout: 30_000 }, async (t) => {
        if (needs && !existsSync(needs)) return skipUnlessCI(t, `${needs} is not built: npm run build builds it when Go is installed`);
        const fixture = project(t, { workspace });
        assert.deepEqual(await runAndKill(t, argv, fixture, signal), { code: null, signal });
        assert.equal(await leftOver(fixture.marker, { expected: 0 }), 0);
      });
    }
    test(`${name}: timeout -s KILL`, { timeout: 30_000 }, async (t) => {
      if (needs && !existsSync(needs)) return skipUnlessCI(t, `${needs} is not built: npm run build builds it when Go is installed`);
      const fixture = project(t, { workspace });
      assert.deepEqual(await runAndKill(t, argv, fixture, "timeout"), { code: null, signal: "SIGKILL" });
      assert.equal(await leftOver(fixture.marker, { expected: 0 }), 0);
    });
  }

  // The peer: npm runs the script in its own process group, so the signal reaches every process.
  // SIGQUIT leaves the background sleep, which ignores it: a shell without job control starts
  // background jobs with SIGINT and SIGQUIT ignored (POSIX). rt leaves not even that one.
  const npm = spawnSync("npm", ["--version"]).status === 0;
  for (const [how, left] of [
    ["SIGKILL", 0],
    ["SIGQUIT", 1],
    ["timeout", 0],
  ]) {
    test(`npm run (the peer): ${how === "timeout" ? "timeout -s KILL" : `${how} to the group`} leaves ${left}`, { timeout: 30_000 }, async (t) => {
      if (!npm) return skipUnlessCI(t, "npm is not installed");
      const fixture = project(t, { workspace: false });
      await runAndKill(t, ["npm", "run", "tree"], fixture, how);
      assert.equal(await leftOver(fixture.marker, { expected: left }), left);
    });
  }
});
