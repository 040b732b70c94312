// --watch and --hot on real files edited on disk. Every wait is for output (no sleeps): the
// tests hold however slow the machine is.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { FIXTURES, rt, rtLive, skipUnlessCI, tempDir } from "./rt.mjs";
import { freePort } from "../../test/support/servers.mjs";

/** A copy of the watch fixtures the test may edit. */
function project(t) {
  const dir = tempDir(t, "rt-watch-");
  cpSync(path.join(FIXTURES, "watch"), dir, { recursive: true });
  return dir;
}

/** Writes a file and waits for `pattern` in the output written after the edit. */
async function edit(live, file, text, pattern) {
  const from = live.output.length;
  writeFileSync(file, text);
  return (await live.waitFor(pattern, { from })).slice(from);
}

async function get(port) {
  const response = await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: "close" } });
  return response.text();
}

describe("--watch", () => {
  test("restarts the program when the entry or a module it imports changes", async (t) => {
    const dir = project(t);
    const live = rtLive(t, ["--watch", "app.ts"], { cwd: dir });
    await live.waitFor(/message: one run 1 counter evaluations 1 pid (\d+)/);
    const firstPid = /pid (\d+)/.exec(live.output)[1];
    const after = await edit(live, path.join(dir, "message.ts"), 'export const text: string = "two";\n', /message: two run 1 /);
    assert.match(after, /rt --watch: restarting: message\.ts changed\n/);
    assert.notEqual(/pid (\d+)/.exec(after)[1], firstPid, "a new process");
    await edit(live, path.join(dir, "app.ts"), 'import { text } from "./message.ts";\nconsole.log(`edited entry: ${text}`);\n', /edited entry: two\n/);
  });

  test("an edit with a syntax error prints it and keeps watching; the fix restarts", async (t) => {
    const dir = project(t);
    const live = rtLive(t, ["--watch", "app.ts"], { cwd: dir });
    await live.waitFor(/message: one run 1/);
    const broken = await edit(live, path.join(dir, "message.ts"), "export const text: string = = 1;\n", /exited with code 1; waiting for a file to change\n/);
    assert.match(broken, /message\.ts:1:29: error: Unexpected "="\nexport const text: string = = 1;\n {28}\^\n/);
    await edit(live, path.join(dir, "message.ts"), 'export const text: string = "fixed";\n', /message: fixed run 1/);
  });

  test("changes to env files and rtfig.toml restart too (even files that did not exist yet)", async (t) => {
    const dir = project(t);
    writeFileSync(path.join(dir, ".env"), "GREETING=hello\n");
    const live = rtLive(t, ["--watch", "settings.ts"], { cwd: dir, env: { NODE_ENV: "" } });
    await live.waitFor(/greeting=hello title=/);
    await edit(live, path.join(dir, ".env"), "GREETING=bonjour\n", /greeting=bonjour/);
    await edit(live, path.join(dir, ".env.local"), "GREETING=local\n", /greeting=local/);
    await edit(live, path.join(dir, "rtfig.toml"), 'title = "from-config"\n', /greeting=local title=from-config\n/);
  });

  test("waits for the old process to exit before starting the new one: a server gets its port back", async (t) => {
    const dir = project(t);
    const port = await freePort();
    const live = rtLive(t, ["--watch", "server.ts"], { cwd: dir, env: { PORT: String(port) } });
    await live.waitFor(/listening v1 on/);
    assert.equal(await get(port), "version v1");
    const after = await edit(live, path.join(dir, "version.ts"), 'export const version: string = "v2";\n', /listening v2 on/);
    // The old run's graceful shutdown (300 ms) finished before the new run started.
    assert.match(after, /stopped v1\n[\s\S]*listening v2 on/);
    assert.doesNotMatch(live.output, /server error/);
    assert.equal(await get(port), "version v2");
  });

  test("a program that does not exit after SIGTERM is killed 5 s later: the restart goes on, and so does stopping", async (t) => {
    const dir = project(t);
    const live = rtLive(t, ["--watch", "stubborn.ts"], { cwd: dir });
    await live.waitFor(/stubborn: one pid \d+\n/);
    const after = await edit(live, path.join(dir, "message.ts"), 'export const text: string = "two";\n', /stubborn: two pid \d+\n/);
    assert.match(
      after,
      /ignoring SIGTERM\nrt --watch: the program did not exit 5 s after SIGTERM; killing it\n[\s\S]*rt --watch: restarting: message\.ts changed\n/,
    );
    const pid = Number(/stubborn: two pid (\d+)/.exec(after)[1]);
    assert.equal((await live.stop()).signal, "SIGTERM");
    assert.throws(() => process.kill(pid, 0), { code: "ESRCH" }, "the program is gone too");
  });

  test("works with rt run <file>, and stopping the supervisor stops the program", async (t) => {
    const dir = project(t);
    const port = await freePort();
    const live = rtLive(t, ["run", "--watch", "server.ts"], { cwd: dir, env: { PORT: String(port) } });
    await live.waitFor(/listening v1 on \d+ pid \d+/);
    await edit(live, path.join(dir, "version.ts"), 'export const version: string = "v2";\n', /listening v2 on/);
    const pid = Number(/listening v2 on \d+ pid (\d+)/.exec(live.output)[1]);
    assert.equal((await live.stop()).signal, "SIGTERM");
    assert.throws(() => process.kill(pid, 0), { code: "ESRCH" }, "the program ended with its supervisor");
    assert.match(live.output, /stopped v2\n/);
  });

  test("clears the terminal on restart, unless --no-clear-screen (on a real pseudo-terminal)", async (t) => {
    if (spawnSync("script", ["--version"]).error) return skipUnlessCI(t, "script(1) from util-linux is not installed");
    const clear = "\x1b[2J\x1b[3J\x1b[H";
    for (const [flags, clears] of [
      [[], true],
      [["--no-clear-screen"], false],
    ]) {
      const dir = project(t);
      const live = rtLive(t, ["--watch", ...flags, "app.ts"], { cwd: dir, terminal: true });
      await live.waitFor(/message: one run 1/);
      const after = await edit(live, path.join(dir, "message.ts"), 'export const text: string = "two";\n', /message: two run 1/);
      assert.equal(after.includes(clear), clears, `${flags.join(" ")}: ${JSON.stringify(after)}`);
      assert.equal(live.output.slice(0, live.output.indexOf("message: one")).includes(clear), false, "the first run is not cleared");
      await live.stop();
    }
  });

  test("--watch with --hot is refused, exit 2", () => {
    const result = rt(["--watch", "--hot", "app.ts"], { cwd: path.join(FIXTURES, "watch") });
    assert.deepEqual(
      [result.code, result.stderr],
      [2, "rt: --watch and --hot can't be combined: --watch restarts the process, --hot reloads modules inside it\n"],
    );
  });
});

describe("--hot", () => {
  test("re-executes the changed module and its importers in the same process: globalThis survives, other modules keep their instance", async (t) => {
    const dir = project(t);
    const live = rtLive(t, ["--hot", "app.ts"], { cwd: dir });
    await live.waitFor(/message: one run 1 counter evaluations 1 pid (\d+)/);
    const pid = /pid (\d+)/.exec(live.output)[1];
    const after = await edit(live, path.join(dir, "message.ts"), 'export const text: string = "two";\n', /message: two run 2 counter evaluations 1 pid \d+/);
    assert.equal(/pid (\d+)/.exec(after)[1], pid, "the same process");
    await edit(live, path.join(dir, "message.ts"), 'export const text: string = "three";\n', /message: three run 3 counter evaluations 1 /);
  });

  test("a server started by the program keeps its port and answers with the new version", async (t) => {
    const dir = project(t);
    const port = await freePort();
    const live = rtLive(t, ["--hot", "server.ts"], { cwd: dir, env: { PORT: String(port) } });
    await live.waitFor(/listening v1 on/);
    assert.equal(await get(port), "version v1");
    await edit(live, path.join(dir, "version.ts"), 'export const version: string = "v2";\n', /listening v2 on/);
    assert.equal(await get(port), "version v2");
    assert.doesNotMatch(live.output, /server error|stopped/);
  });

  test("a reload that throws prints the error and keeps the previous version running; the next good edit reloads", async (t) => {
    const dir = project(t);
    const port = await freePort();
    const live = rtLive(t, ["--hot", "server.ts"], { cwd: dir, env: { PORT: String(port) } });
    await live.waitFor(/listening v1 on/);
    const failed = "rt --hot: the reload failed; the previous version keeps running until the next change\n";
    const syntax = await edit(live, path.join(dir, "version.ts"), 'export const version: string = = "v2";\n', /the previous version keeps running/);
    assert.equal(syntax, `version.ts:1:32: error: Unexpected "="\nexport const version: string = = "v2";\n${" ".repeat(31)}^\n${failed}`);
    assert.equal(await get(port), "version v1");
    const thrown = await edit(
      live,
      path.join(dir, "version.ts"),
      'throw new Error("no version today");\nexport const version: string = "v2";\n',
      /the previous version keeps running/,
    );
    assert.match(thrown, /^1 \| throw new Error\("no version today"\);\n {10}\^\nError: no version today\n {4}at .*version\.ts:1:7/);
    assert.equal(await get(port), "version v1");
    await edit(live, path.join(dir, "version.ts"), 'export const version: string = "v3";\n', /listening v3 on/);
    assert.equal(await get(port), "version v3");
  });

  test("--hot needs a file: with -e, -p or stdin it is refused, exit 2", () => {
    for (const args of [
      ["-e", "1"],
      ["-p", "1"],
      ["run", "-"],
    ]) {
      const result = rt(["--hot", ...args], { cwd: path.join(FIXTURES, "watch"), input: "1" });
      assert.deepEqual(
        [result.code, result.stderr],
        [2, "rt: --hot reloads the modules of a file: give a file to run, not --eval, --print or stdin (--watch works with them)\n"],
        args.join(" "),
      );
    }
  });

  test("CommonJS modules reload too", async (t) => {
    const dir = project(t);
    const live = rtLive(t, ["--hot", "app.cts"], { cwd: dir });
    await live.waitFor(/cjs: first run 1\n/);
    await edit(live, path.join(dir, "dep.cts"), 'exports.text = "second";\n', /cjs: second run 2\n/);
  });
});
