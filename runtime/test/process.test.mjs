// Runtime and process flags, preloads, environment files and --cwd, on real rt processes.
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import * as net from "node:net";
import { constrainedMemory } from "node:process";
import { totalmem } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { FIXTURES, RT_BIN, rt, rtArgv, runOk, tempDir } from "./rt.mjs";

/** rt's cap on an env file's size (runtime/src/config/env-files.ts). */
const MAX_ENV_FILE_MIB = 10;

const cwd = path.join(FIXTURES, "process");

/** A user mistake: one line, the exit code, no stack from inside rt. */
function mistake(result, code, message) {
  assert.deepEqual({ code: result.code, stderr: result.stderr, stdout: result.stdout }, { code, stderr: message, stdout: "" });
}

describe("runtime flags", () => {
  test("--smol: half the heap limit Node sized from available memory, and many more young-generation collections", () => {
    const normal = JSON.parse(runOk(cwd, ["heap.ts"]));
    const smol = JSON.parse(runOk(cwd, ["--smol", "heap.ts"]));
    // Node sizes the heap from the memory available to the process, cgroup limits included.
    const available = Math.min(totalmem(), constrainedMemory() || Infinity);
    assert.ok(normal.limit <= available, `${normal.limit} <= ${available}`);
    assert.ok(Math.abs(smol.limit - normal.limit / 2) < normal.limit * 0.05, `smol limit ${smol.limit} is about half of ${normal.limit}`);
    assert.ok(smol.scavenges > 3 * normal.scavenges, `smol collects more often: ${smol.scavenges} vs ${normal.scavenges}`);
  });

  test("--expose-gc: a global gc() that really collects", () => {
    assert.equal(runOk(cwd, ["collect.ts"]), "no gc\n");
    assert.equal(runOk(cwd, ["--expose-gc", "collect.ts"]), "collected\n");
  });

  test("util.deprecate warns by default; --no-deprecation silences it; --throw-deprecation throws (exit 1, after the current tick, as in Node)", () => {
    const warned = rt(["deprecated.ts"], { cwd });
    assert.equal(warned.stdout, "old result\nafter\n");
    assert.match(warned.stderr, /^\(node:\d+\) \[DEP_RT_TEST\] DeprecationWarning: oldApi\(\) is deprecated, use newApi\(\)\n/);
    assert.equal(runOk(cwd, ["--no-deprecation", "deprecated.ts"]), "old result\nafter\n");
    const thrown = rt(["--throw-deprecation", "deprecated.ts"], { cwd });
    assert.equal(thrown.code, 1);
    assert.equal(thrown.stdout, "old result\nafter\n");
    assert.match(thrown.stderr, /^DeprecationWarning: oldApi\(\) is deprecated, use newApi\(\)\n {4}at .*deprecated\.ts:3:13$/m);
  });

  test("--title sets the full title, however long (ps shows it)", { skip: process.platform !== "linux" && "reads /proc" }, () => {
    const long = `rt-title-${"x".repeat(400)}-end`;
    for (const args of [[`--title=${long}`], ["--title", "short-title"]]) {
      const title = args.at(-1).replace(/^--title=/, "");
      const shown = JSON.parse(runOk(cwd, [...args, "title.ts"]));
      assert.equal(shown.title, title);
      assert.equal(shown.shown, title);
    }
  });

  test("a title longer than the command line (from rtfig.toml) restarts the process with it: still the full title, same pid", {
    skip: process.platform !== "linux" && "reads /proc",
  }, async (t) => {
    const config = path.join(tempDir(t), "rtfig.toml");
    const long = `from-config-${"y".repeat(500)}`;
    writeFileSync(config, `title = "${long}"\n`);
    const child = spawn(process.execPath, ["--", RT_BIN, "--config", config, "title.ts"], { cwd });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    await new Promise((resolve) => child.on("close", resolve));
    assert.deepEqual(JSON.parse(stdout), { pid: child.pid, title: long, shown: long });
  });

  test("--zero-fill-buffers: Buffer.allocUnsafe returns zeroed memory (it does not without)", () => {
    assert.match(runOk(cwd, ["dirty-buffers.ts"]), /^dirty allocations: [1-9]\d*\n$/);
    assert.equal(runOk(cwd, ["--zero-fill-buffers", "dirty-buffers.ts"]), "dirty allocations: 0\n");
  });

  test("a flag applied at process start keeps the pid, exit code, signals and stdin of the process", async () => {
    for (const flag of ["--zero-fill-buffers", "--smol"]) {
      assert.equal(rt([flag, "exits.ts", "code"], { cwd }).code, 7);
      assert.equal(rt([flag, "exits.ts", "signal"], { cwd }).signal, "SIGTERM");
      assert.equal(rt([flag, "exits.ts", "stdin"], { cwd, input: "hello\n" }).stdout, "stdin: hello\n");
      const child = spawn(process.execPath, ["--", RT_BIN, flag, "exits.ts", "pid"], { cwd });
      let stdout = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      await new Promise((resolve) => child.on("close", resolve));
      assert.equal(stdout, `${child.pid}\n`, `${flag}: the program runs in the process rt was started as`);
    }
  });

  test("--no-addons: the node-addons condition is off and process.dlopen throws ERR_DLOPEN_DISABLED", () => {
    assert.match(runOk(cwd, ["addons.ts"]), /^import: native, require: native, dlopen: ERR_DLOPEN_FAILED: /);
    assert.equal(
      runOk(cwd, ["--no-addons", "addons.ts"]),
      "import: portable, require: portable, dlopen: ERR_DLOPEN_DISABLED: Cannot load native addon because loading addons is disabled.\n",
    );
  });

  test("--console-depth: default 2 shows an object's third level as [Object]; higher shows more; util.inspect keeps its default", () => {
    const result = rt(["nested.ts"], { cwd });
    assert.equal(result.stdout, "{ a: { b: { c: [Object] } } }\n{ a: { b: { c: [Object] } } }\n");
    assert.equal(result.stderr, "{ a: { b: { c: [Object] } } }\n");
    const deeper = rt(["--console-depth=3", "nested.ts"], { cwd });
    assert.equal(deeper.stdout, "{\n  a: { b: { c: { d: [Object] } } }\n}\n{ a: { b: { c: [Object] } } }\n");
    assert.equal(deeper.stderr, "{\n  a: { b: { c: { d: [Object] } } }\n}\n");
    assert.match(rt(["--console-depth", "10", "nested.ts"], { cwd }).stdout, /^\{\n {2}a: \{\n {4}b: \{ c: \{ d: \{ e: 1 \} \} \}\n/);
  });
});

describe("--unhandled-rejections", () => {
  // The same plain-JavaScript program on node and on rt: what the program prints, the exit code
  // and whether Node's UnhandledPromiseRejectionWarning appears must all match, in every mode.
  const node = (args) => spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  const warnings = (stderr) => stderr.match(/UnhandledPromiseRejectionWarning/g)?.length ?? 0;
  for (const mode of ["throw", "strict", "warn", "none", "warn-with-error-code"]) {
    test(`${mode}: the same events, output and exit code as Node`, () => {
      for (const options of [[], ["--listen"], ["--catch"], ["--listen", "--catch"], ["--string"]]) {
        const expected = node([`--unhandled-rejections=${mode}`, "rejections.mjs", ...options]);
        const actual = rt([`--unhandled-rejections=${mode}`, "rejections.mjs", ...options], { cwd });
        const label = `${mode} ${options.join(" ")}`;
        assert.equal(actual.stdout, expected.stdout, label);
        assert.equal(actual.code, expected.status, label);
        assert.equal(warnings(actual.stderr), warnings(expected.stderr), `${label}: ${actual.stderr}`);
        if (warnings(expected.stderr))
          assert.match(actual.stderr, /UnhandledPromiseRejectionWarning: (Error: boom\n {4}at .*rejections\.mjs:5:|just a string)/, label);
      }
    });
  }

  test("an uncaught rejection in throw and strict mode gets rt's report (source preview), exit 1", () => {
    for (const mode of ["throw", "strict"]) {
      const result = rt([`--unhandled-rejections=${mode}`, "rejections.mjs"], { cwd });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /^5 \| Promise\.reject\(.*\n\s+\^\nError: boom\n/m, mode);
    }
  });
});

describe("preloads", () => {
  const dir = path.join(cwd, "preload");

  test("-r, --import and --require are one repeatable list, run in command-line order before the entry (TypeScript, top-level await, CommonJS, packages)", () => {
    assert.equal(
      runOk(dir, ["-r", "./setup.ts", "--import", "./slow.mjs", "--require", "./legacy.cts", "--preload=preload-pkg", "app.ts"]),
      "setup.ts > slow.mjs > legacy.cts:object > preload-pkg > app.ts\n",
    );
    assert.equal(runOk(dir, ["--require=./legacy.cts", "-r./setup.ts", "app.ts"]), "legacy.cts:object > setup.ts > app.ts\n");
  });

  test("preloads run before -e, -p and stdin code too", () => {
    assert.equal(runOk(dir, ["-r", "./setup", "-e", "console.log(globalThis.order)"]), "[ 'setup.ts' ]\n");
    assert.equal(runOk(dir, ["-r", "./setup", "-p", "globalThis.order.length"]), "1\n");
    assert.equal(rt(["-r", "./setup", "run", "-"], { cwd: dir, input: "console.log(globalThis.order)" }).stdout, "[ 'setup.ts' ]\n");
  });

  test("a missing preload: one line naming it, exit 1", () => {
    mistake(rt(["-r", "./nope.ts", "app.ts"], { cwd: dir }), 1, 'error: preload not found "./nope.ts"\n');
    mistake(rt(["--import", "no-such-package", "app.ts"], { cwd: dir }), 1, 'error: preload not found "no-such-package"\n');
  });
});

describe("environment files", () => {
  const dir = path.join(cwd, "env");
  const show = (args = [], env = {}) => rt([...args, "show.ts"], { cwd: dir, env: { NODE_ENV: "", ...env } }).stdout;

  test(".env, then .env.$NODE_ENV (development when unset), then .env.local load automatically; later files win", () => {
    assert.equal(show(), "FROM_ENV=.env SHARED=.env.local OVERRIDE_ME=.env DEV_ONLY=yes LOCAL_ONLY=yes FIRST=- SECOND=- QUOTED=-\n");
    assert.equal(
      show([], { NODE_ENV: "production" }),
      "FROM_ENV=.env SHARED=.env.local OVERRIDE_ME=.env DEV_ONLY=- LOCAL_ONLY=yes FIRST=- SECOND=- QUOTED=-\n",
    );
  });

  test("NODE_ENV=test skips .env.local", () => {
    assert.equal(show([], { NODE_ENV: "test" }), "FROM_ENV=.env SHARED=.env.test OVERRIDE_ME=.env DEV_ONLY=- LOCAL_ONLY=- FIRST=- SECOND=- QUOTED=-\n");
  });

  test("the real environment wins over every file", () => {
    assert.match(show([], { OVERRIDE_ME: "real", SHARED: "" }), /SHARED= OVERRIDE_ME=real /);
  });

  test("--env-file (repeatable) loads exactly those files, later ones winning", () => {
    assert.equal(
      show(["--env-file", "first.env", "--env-file=second.env"]),
      "FROM_ENV=- SHARED=second.env OVERRIDE_ME=- DEV_ONLY=- LOCAL_ONLY=- FIRST=1 SECOND=2 QUOTED=a b # not a comment\n",
    );
  });

  test("--no-env-file turns automatic loading off", () => {
    assert.equal(show(["--no-env-file"]), "FROM_ENV=- SHARED=- OVERRIDE_ME=- DEV_ONLY=- LOCAL_ONLY=- FIRST=- SECOND=- QUOTED=-\n");
  });

  test("a missing --env-file: one line naming the flag and the file, exit 2", () => {
    mistake(rt(["--env-file", "missing.env", "show.ts"], { cwd: dir }), 2, "rt: --env-file: no such file: missing.env\n");
  });

  test("an automatic .env that is not a regular file (a FIFO with no writer, a socket, a device) is skipped at once, as Bun does", async (t) => {
    const project = tempDir(t);
    writeFileSync(path.join(project, "show.js"), "console.log(process.env.FROM_FILE ?? '-')\n");
    writeFileSync(path.join(project, ".env.local"), "FROM_FILE=local\n");
    // 1Password mounts .env as a FIFO: opening it for reading would wait for a writer forever.
    execFileSync("mkfifo", [path.join(project, ".env")]);
    const socket = net.createServer().listen(path.join(project, ".env.development"));
    t.after(() => socket.close());
    await once(socket, "listening");
    const show = () => {
      const [command, ...args] = rtArgv(["show.js"]);
      const ran = spawnSync(command, args, { cwd: project, encoding: "utf8", timeout: 10_000, env: { ...process.env, NODE_ENV: "" } });
      assert.deepEqual([ran.error?.code, ran.status, ran.stdout, ran.stderr], [undefined, 0, "local\n", ""]);
    };
    show();
    // A device: /dev/zero would be read until memory runs out.
    rmSync(path.join(project, ".env"));
    symlinkSync("/dev/zero", path.join(project, ".env"));
    show();
  });

  test("--env-file reads a pipe it is given: --env-file <(op inject ...) works", () => {
    const command = rtArgv(["--env-file", "<(printf 'FIRST=piped\\n')", "show.ts"]).map((arg) => (arg.startsWith("<(") ? arg : `'${arg}'`));
    const ran = spawnSync("bash", ["-c", command.join(" ")], { cwd: dir, encoding: "utf8", timeout: 10_000 });
    assert.deepEqual([ran.status, ran.stderr], [0, ""]);
    assert.match(ran.stdout, / FIRST=piped /);
  });

  test(`an env file over ${MAX_ENV_FILE_MIB} MiB (--env-file /dev/zero): one line naming it, exit 2, at once`, () => {
    const started = performance.now();
    mistake(
      rt(["--env-file", "/dev/zero", "show.ts"], { cwd: dir }),
      2,
      `rt: --env-file /dev/zero: is larger than ${MAX_ENV_FILE_MIB} MiB, more than any env file needs: is it the right file?\n`,
    );
    assert.ok(performance.now() - started < 10_000);
  });

  test("25,000 variables load in linear time: in well under the CPU time of node --env-file with the same file", (t) => {
    const project = tempDir(t);
    const lines = Array.from({ length: 25_000 }, (_, i) => `VARIABLE_${i}=value_${i}\n`).join("");
    writeFileSync(path.join(project, ".env"), lines);
    // CPU time, which the other tests running beside this one do not change much, and not
    // Object.keys(process.env): enumerating the environment is quadratic in Node itself.
    const program = "const { user, system } = process.cpuUsage(); console.log(process.env.VARIABLE_24999, (user + system) / 1000)\n";
    writeFileSync(path.join(project, "last.js"), program);
    const cpuMs = ([command, ...args]) => {
      const ran = spawnSync(command, args, { cwd: project, encoding: "utf8", env: { ...process.env, NODE_ENV: "" } });
      assert.deepEqual([ran.status, ran.stderr], [0, ""]);
      const [value, cpu] = ran.stdout.trim().split(" ");
      assert.equal(value, "value_24999");
      return Number(cpu);
    };
    const node = cpuMs([process.execPath, "--env-file=.env", "last.js"]);
    const ours = cpuMs(rtArgv(["last.js"]));
    // Both pay libc's setenv, which scans the environment, for each variable; Node's --env-file
    // also asks getenv first. rt did too (through process.env, slower): 1.2 to 2.3 times Node's
    // CPU time, now about half of it.
    assert.ok(ours < node * 0.8, `rt ${Math.round(ours)} ms of CPU, node --env-file ${Math.round(node)} ms`);
  });
});

describe("--cwd", () => {
  const dir = path.join(cwd, "env");

  test("changes the working directory before the entry, env files and everything else resolve", () => {
    assert.equal(runOk(path.parse(cwd).root, ["--cwd", dir, "cwd.ts"]), `cwd=${dir} main=${path.join(dir, "cwd.ts")} shared=.env.local\n`);
  });

  test("a relative or missing directory: one line, exit 2", () => {
    mistake(
      rt(["--cwd", "relative/path", "cwd.ts"], { cwd }),
      2,
      'rt: invalid value "relative/path" for --cwd: expected an absolute path, e.g. --cwd "$PWD/relative/path"\n',
    );
    mistake(rt(["--cwd=/no/such/dir", "cwd.ts"], { cwd }), 2, "rt: --cwd: no such directory: /no/such/dir\n");
  });
});

describe("bad flag values", () => {
  test("--unhandled-rejections=sometimes and --console-depth=-1 name the flag and the valid values, exit 2", () => {
    mistake(
      rt(["--unhandled-rejections=sometimes", "nested.ts"], { cwd }),
      2,
      'rt: invalid value "sometimes" for --unhandled-rejections; valid values: strict, throw, warn, none, warn-with-error-code\n',
    );
    mistake(rt(["--console-depth=-1", "nested.ts"], { cwd }), 2, 'rt: invalid value "-1" for --console-depth: expected a whole number >= 0\n');
    mistake(rt(["--console-depth", "-1", "nested.ts"], { cwd }), 2, 'rt: invalid value "-1" for --console-depth: expected a whole number >= 0\n');
  });
});
