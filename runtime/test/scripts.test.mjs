// The script runner (`rt run`): resolution order, scripts in real shells, lifecycle, exit codes
// and signals, listing, flags, workspaces, --parallel/--sequential and every bad-input case, on
// the fixture projects in test/fixtures/scripts/ (a plain package with node_modules/.bin
// binaries, a monorepo whose packages depend on each other, broken projects). Terminal output is
// checked on real pseudo-terminals (tmux, script(1)).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { FIXTURES, NATIVE_FRONT, REPO, RT_BIN, rt, rtArgv, tempDir, throughNativeFront } from "./rt.mjs";
import { inTmux, rtCommand, underScript } from "./terminal.mjs";

// npm test runs this suite twice: here every rt runs on the Node CLI, started as node_modules/.bin/rt
// starts it once the compiled front is built (the front with RT_NATIVE=0 execs it), and
// scripts-native.test.mjs runs it again with the front running the scripts itself.
if (process.env.RT_TEST_FRONT === undefined && existsSync(NATIVE_FRONT)) {
  process.env.RT_TEST_FRONT = "native";
  process.env.RT_NATIVE = "0";
}

const HERE = path.join(FIXTURES, "scripts");
const plain = path.join(HERE, "plain");
const mono = path.join(HERE, "monorepo");
const version = JSON.parse(readFileSync(path.join(REPO, "runtime", "package.json"), "utf8")).version;

/** Asserts the exact stdout, stderr and exit code. */
function same(result, { stdout = "", stderr = "", code = 0 }) {
  assert.deepEqual({ stdout: result.stdout, stderr: result.stderr, code: result.code }, { stdout, stderr, code });
}

/** A user mistake: the exact one-line error on stderr, nothing on stdout, exit code. */
function mistake(result, code, stderr) {
  same(result, { stderr, code });
}

/** `Done in 12ms` / `Done in 12 ms` → `Done in Nms` / `Done in N ms`. */
const timeless = (text) => text.replace(/Done in \d+( ?)ms/g, "Done in N$1ms");

/** Like same(), with the durations on stderr written as N. */
function sameButDurations(result, expected) {
  same({ ...result, stderr: timeless(result.stderr) }, expected);
}

describe("resolution order", () => {
  test("rt run <script> and rt <script> run the package.json script", () => {
    const expected = { stdout: "pre\ncleaning\npost\n", stderr: "$ echo pre\n$ echo cleaning\n$ echo post\n" };
    same(rt(["run", "clean"], { cwd: plain }), expected);
    same(rt(["clean"], { cwd: plain }), expected);
  });

  test("a script comes before a source file of the same name; a runnable extension means the file, unless `run` forces the script", () => {
    same(rt(["hello"], { cwd: plain }), { stdout: "script named hello\n", stderr: "$ echo script named hello\n" });
    same(rt(["hello.ts"], { cwd: plain }), { stdout: "hello from hello.ts\n" });
    same(rt(["run", "hello.ts"], { cwd: plain }), { stdout: "script named hello.ts\n", stderr: "$ echo script named hello.ts\n" });
  });

  test("a name that is no script is a source file, with or without its extension", () => {
    same(rt(["run", "src/main"], { cwd: plain }), { stdout: "src/main.ts ran\n" });
    same(rt(["src/main.ts"], { cwd: plain }), { stdout: "src/main.ts ran\n" });
  });

  test("absolute paths and paths starting ./ or .\\ are always source files, never scripts", () => {
    same(rt(["run", "./hello.ts"], { cwd: plain }), { stdout: "hello from hello.ts\n" });
    same(rt([path.join(plain, "hello.ts")], { cwd: REPO }), { stdout: "hello from hello.ts\n" });
    same(rt(["run", ".\\src\\main.ts"], { cwd: plain }), { stdout: "src/main.ts ran\n" });
    same(rt([".\\hello.ts"], { cwd: plain }), { stdout: "hello from hello.ts\n" });
    mistake(rt(["run", "./clean"], { cwd: plain }), 1, 'error: Module not found "./clean"\n');
    mistake(rt(["run", ".\\clean"], { cwd: plain }), 1, 'error: Module not found ".\\clean"\n');
  });

  test("then a binary from node_modules/.bin, run in the cwd with the arguments as given", () => {
    same(rt(["run", "greet", "a b", "--flag"], { cwd: plain }), { stdout: `greet: a b --flag\ngreet cwd: ${plain}\n` });
    same(rt(["greet", "x"], { cwd: plain }), { stdout: `greet: x\ngreet cwd: ${plain}\n` });
    same(rt(["run", "greet"], { cwd: plain, env: { GREET_EXIT: "4" } }), { stdout: `greet: \ngreet cwd: ${plain}\n`, code: 4 });
  });

  test("binaries of ancestor packages are found too, from a subdirectory", () => {
    const deeper = path.join(plain, "nested", "deeper");
    same(rt(["run", "greet", "up"], { cwd: deeper }), { stdout: `greet: up\ngreet cwd: ${deeper}\n` });
    const foo = path.join(mono, "packages", "foo");
    same(rt(["run", "root-tool", "hi"], { cwd: foo }), { stdout: "root-tool: hi\n" });
  });

  test("then, with `run` only, a system command", () => {
    same(rt(["run", "echo", "hi", "there"], { cwd: plain }), { stdout: "hi there\n" });
    same(rt(["run", "sh", "-c", "exit 6"], { cwd: plain }), { code: 6 });
    mistake(rt(["echo", "hi"], { cwd: plain }), 1, 'error: Script not found "echo"\n');
  });

  test("a built-in command of the same name wins; `rt run <name>` forces the script", () => {
    mistake(rt(["build"], { cwd: plain }), 2, "rt: rt build needs at least one entry file: rt build ./src/index.ts --outdir dist\n");
    same(rt(["run", "build"], { cwd: plain }), { stdout: "<build>\n", stderr: "$ printf '<%s>\\n' build\n" });
  });

  test("a script runs in its package's directory, from any subdirectory", () => {
    same(rt(["run", "where"], { cwd: path.join(plain, "nested", "deeper") }), { stdout: `${plain}\n`, stderr: "$ pwd\n" });
  });
});

describe("the rules shared with the compiled front (script-rules.json)", () => {
  const { cases } = JSON.parse(readFileSync(path.join(REPO, "runtime", "test", "script-rules.json"), "utf8"));
  const values = {
    fixtures: HERE,
    version,
    node: process.execPath,
    nodeVersion: process.version,
    launcher: RT_BIN,
    platform: process.platform,
    arch: process.arch,
    // 30,000 bytes as rt gets it, 150,000 once quoted for the shell (each ' takes 5 bytes).
    manyQuotes: "'".repeat(30_000),
  };
  const fill = (text) => text.replace(/\{(\w+)\}/g, (whole, key) => values[key] ?? whole);
  for (const { rule, cwd, args, env, stdout = "", stderr = "", stderrPattern, ignoreLines, code = 0 } of cases) {
    test(`${rule}: rt ${args.join(" ")}`, (t) => {
      if (JSON.stringify(env ?? {}).includes("{nodeOnlyPath}")) {
        values.nodeOnlyPath = tempDir(t);
        symlinkSync(process.execPath, path.join(values.nodeOnlyPath, "node"));
      }
      const filled = env && Object.fromEntries(Object.entries(env).map(([key, value]) => [key, fill(value)]));
      const result = rt(args.map(fill), { cwd: path.join(HERE, cwd), env: filled });
      const shown = ignoreLines
        ? result.stdout
            .split(/(?<=\n)/)
            .filter((line) => !new RegExp(ignoreLines).test(line))
            .join("")
        : result.stdout;
      if (stderrPattern) assert.match(result.stderr, new RegExp(stderrPattern));
      same({ ...result, stdout: shown, stderr: stderrPattern ? "" : result.stderr }, { stdout: fill(stdout), stderr: stderrPattern ? "" : fill(stderr), code });
    });
  }
});

describe("startup budget", () => {
  const probe = path.join(REPO, "runtime", "test", "probes", "startup.cjs");
  const probed = (args, cwd) =>
    rt(args, { cwd, env: { NODE_OPTIONS: `--require ${probe}`, RT_TRANSPILER_CACHE_PATH: "0" } })
      .stderr.split("\n")
      .find((line) => line.startsWith("probe:"));

  test("a script runs, scripts run across packages and the scripts are listed without module hooks or the transpiler (through the compiled front, without Node at all)", () => {
    assert.equal(probed(["run", "clean"], plain), throughNativeFront() ? undefined : "probe: hooks=false esbuild=false child_process=true");
    assert.equal(probed(["run"], plain), throughNativeFront() ? undefined : "probe: hooks=false esbuild=false child_process=false");
    for (const args of [
      ["--filter", "*", "build"],
      ["run", "--sequential", "--workspaces", "fail"],
    ])
      assert.equal(probed(args, mono), throughNativeFront() ? undefined : "probe: hooks=false esbuild=false child_process=true", args.join(" "));
  });

  test("(the probe sees them when a file runs)", () => {
    assert.equal(probed(["hello.ts"], plain), "probe: hooks=true esbuild=true child_process=true");
  });
});

describe("scripts in a shell", () => {
  test("the system shell is the first of bash, sh, zsh", () => {
    const result = rt(["run", "shell-name"], { cwd: plain });
    assert.match(result.stdout, /^\d+\.\d+\.\d+/, "bash sets BASH_VERSION");
    const loop = rt(["run", "loop"], { cwd: plain });
    same(loop, { stdout: "loop 1\nloop 2\n", stderr: "$ for i in 1 2; do echo loop $i; done\n" });
  });

  test("a simple command starts without the shell, as the shell would start it: PATH lookup, PWD, and the shell's own report when nothing starts", {
    skip: process.platform !== "linux" && "reads /proc",
  }, () => {
    // Its parent is rt: the Node CLI's node, or the compiled front.
    same(rt(["run", "parent"], { cwd: plain }), { stdout: throughNativeFront() ? "rt\n" : "node\n", stderr: "$ parent-exe\n" });
    same(rt(["run", "parent-of-pipe"], { cwd: plain }), { stdout: "bash\n", stderr: "$ parent-exe | cat\n" });
    same(rt(["run", "pwd-env"], { cwd: path.join(plain, "nested", "deeper") }), { stdout: `${plain}\n`, stderr: "$ printenv PWD\n" });
    assert.match(rt(["run", "no-shebang"], { cwd: plain }).stdout, /^no #! line, run by /);
    const missing = rt(["run", "missing"], { cwd: plain });
    assert.equal(missing.code, 127);
    assert.match(
      missing.stderr,
      /^\$ no-such-program --version\n(\/\S+\/)?bash: (line 1: )?no-such-program: command not found\nerror: script "missing" exited with code 127\n$/,
    );
  });

  test("arguments after the name are appended, shell-quoted so each stays one word and none runs as code", () => {
    const result = rt(["run", "words", "a", "b c", "it's", "$HOME", "", "--x=1", "`id`"], { cwd: plain });
    same(result, {
      stdout: "[a]\n[b c]\n[it's]\n[$HOME]\n[]\n[--x=1]\n[`id`]\n",
      stderr: `$ printf '[%s]\\n' a 'b c' 'it'"'"'s' '$HOME' '' --x=1 '\`id\`'\n`,
    });
  });

  test("flags after the script name belong to the script; a leading -- is dropped", () => {
    same(rt(["run", "words", "--silent", "--help"], { cwd: plain }), { stdout: "[--silent]\n[--help]\n", stderr: "$ printf '[%s]\\n' --silent --help\n" });
    same(rt(["run", "args", "--", "a", "-b"], { cwd: plain }), {
      stdout: '["a","-b"]\n',
      stderr: '$ node -e "console.log(JSON.stringify(process.argv.slice(1)))" a -b\n',
    });
    same(rt(["run", "build", "--", "--prod"], { cwd: plain }), { stdout: "<build>\n<--prod>\n", stderr: "$ printf '<%s>\\n' build --prod\n" });
  });

  test("the environment npm and Bun give a script", () => {
    const deeper = path.join(plain, "nested", "deeper");
    const result = rt(["run", "env"], { cwd: deeper });
    assert.equal(result.code, 0, result.stderr);
    // npm's own configuration variables pass through when the tests run under npm.
    const lines = result.stdout
      .trimEnd()
      .split("\n")
      .filter((line) => !line.startsWith("npm_config_") || line.startsWith("npm_config_user_agent="));
    assert.deepEqual(lines, [
      `INIT_CWD=${deeper}`,
      "npm_command=run-script",
      `npm_config_user_agent=rt/${version} npm/? node/${process.version} ${process.platform} ${process.arch}`,
      `npm_execpath=${RT_BIN}`,
      "npm_lifecycle_event=env",
      "npm_lifecycle_script=env | grep -E '^(npm_|INIT_CWD=)' | sort",
      `npm_node_execpath=${process.execPath}`,
      `npm_package_json=${path.join(plain, "package.json")}`,
      "npm_package_name=plain",
      "npm_package_version=1.2.3",
    ]);
  });

  test("node_modules/.bin of the package and every ancestor come first on PATH", () => {
    const result = rt(["run", "path"], { cwd: plain, env: { PATH: `/caller/bin:${process.env.PATH}` } });
    const dirs = result.stdout.trimEnd().split(":");
    const ancestors = [];
    for (let dir = plain; ; dir = path.dirname(dir)) {
      ancestors.push(path.join(dir, "node_modules", ".bin"));
      if (path.dirname(dir) === dir) break;
    }
    assert.deepEqual(dirs.slice(0, ancestors.length + 1), [...ancestors, "/caller/bin"]);
  });

  test("--shell=rt runs scripts in rt's portable shell; --shell=system in bash", () => {
    same(rt(["run", "--shell=rt", "shell-name"], { cwd: plain }), { stdout: "not-bash\n", stderr: "$ echo ${BASH_VERSION:-not-bash}\n" });
    assert.match(rt(["run", "--shell=system", "shell-name"], { cwd: plain }).stdout, /^\d+\.\d+/);
  });

  test("[run] shell in rtfig.toml picks rt's shell; the command line wins over the file", () => {
    const cwd = path.join(HERE, "rt-shell");
    same(rt(["run", "shell-name"], { cwd }), { stdout: "not-bash\n", stderr: "$ echo ${BASH_VERSION:-not-bash}\n" });
    assert.match(rt(["run", "--shell", "system", "shell-name"], { cwd }).stdout, /^\d+\.\d+/);
    same(rt(["run", "portable"], { cwd }), {
      stdout: "bar rt-shell-fixture\nand-then\n",
      stderr: `$ FOO=bar node -e "console.log(process.env.FOO, process.env.npm_package_name)" && echo and-then\n`,
    });
    same(rt(["run", "words", "a b", "it's", "$HOME"], { cwd }), {
      stdout: '["a b","it\'s","$HOME"]\n',
      stderr: `$ node -e "console.log(JSON.stringify(process.argv.slice(1)))" 'a b' 'it'"'"'s' '$HOME'\n`,
    });
    same(rt(["run", "glob"], { cwd }), { stdout: "package.json\n", stderr: "$ echo *.json\n" });
    same(rt(["run", "fail"], { cwd }), { stdout: "failing\n", stderr: '$ echo failing && exit 5\nerror: script "fail" exited with code 5\n', code: 5 });
  });

  test("[run] silent and rt in rtfig.toml", (t) => {
    const cwd = tempDir(t);
    writeFileSync(path.join(cwd, "package.json"), JSON.stringify({ name: "configured", scripts: { runtime: 'node -e "console.log(typeof rt)"' } }));
    writeFileSync(path.join(cwd, "rtfig.toml"), "[run]\nsilent = true\nrt = true\n");
    same(rt(["run", "runtime"], { cwd }), { stdout: "object\n" });
    same(rt(["run", "--silent=false", "--rt=false", "runtime"], { cwd }), { stdout: "undefined\n", stderr: '$ node -e "console.log(typeof rt)"\n' });
  });

  test("a bad [run] value in rtfig.toml names the file, line and the valid values", () => {
    mistake(
      rt(["run", "hi"], { cwd: path.join(HERE, "bad-rtfig") }),
      2,
      'rt: rtfig.toml:3:1: invalid value for "run.shell": expected one of system, rt, got "fish"\n',
    );
  });
});

describe("lifecycle and exit codes", () => {
  test("pre<script>, the script, then post<script>; arguments reach the script only", () => {
    same(rt(["run", "clean", "x", "y"], { cwd: plain }), { stdout: "pre\ncleaning x y\npost\n", stderr: "$ echo pre\n$ echo cleaning x y\n$ echo post\n" });
  });

  test("a failing pre-script stops the chain and its exit code is rt's", () => {
    mistake(rt(["run", "failing"], { cwd: plain }), 1, '$ exit 1\nerror: script "prefailing" exited with code 1\n');
  });

  test("a script's exit code is rt's, and its post-script does not run", () => {
    mistake(rt(["run", "fail"], { cwd: plain }), 3, '$ exit 3\nerror: script "fail" exited with code 3\n');
  });

  test("a script killed by a signal gives 128 + n", () => {
    mistake(rt(["run", "self-kill"], { cwd: plain }), 143, '$ kill -TERM $$\nerror: script "self-kill" was killed by SIGTERM\n');
  });

  test("SIGTERM to rt reaches the script's whole process group; rt waits and exits 128 + 15", { timeout: 20_000 }, async (t) => {
    const pids = path.join(tempDir(t), "pids");
    const { child, ready, done } = startRt(t, ["run", "tree"], { cwd: plain, env: { PIDS: pids } });
    await ready;
    const sleepers = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    assert.equal(sleepers.length, 2);
    child.kill("SIGTERM");
    const result = await done;
    assert.equal(result.code, 143, result.stderr);
    assert.match(result.stderr, /error: script "tree" was killed by SIGTERM\n$/);
    for (const pid of sleepers) assert.ok(await gone(pid), `background job ${pid} of the script got the signal too`);
  });

  test("SIGQUIT (Ctrl-\\) ends rt by its default action, as it ends Node: no dump; the script ends with rt", { timeout: 20_000 }, async (t) => {
    const cwd = tempDir(t);
    writeFileSync(path.join(cwd, "package.json"), JSON.stringify({ scripts: { wait: "echo $$ > script.pid; echo ready; sleep 30" } }));
    // No core file from rt's end (ulimit -c 0), whichever Node or front it is.
    const child = spawn("sh", ["-c", 'ulimit -c 0; exec "$@"', "sh", ...rtArgv(["run", "wait"])], { cwd, env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    // "exit", not "close": the script, still running, holds the pipes open.
    const done = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
    while (!stdout.includes("ready\n")) await sleep(20);
    const script = Number(readFileSync(path.join(cwd, "script.pid"), "utf8"));
    t.after(() => {
      try {
        process.kill(-script, "SIGKILL");
      } catch {
        // Already gone, as it should be.
      }
      child.stdout.destroy();
      child.stderr.destroy();
    });
    child.kill("SIGQUIT");
    assert.deepEqual(await done, { code: null, signal: "SIGQUIT" });
    // rt does not forward SIGQUIT; its guardian kills the script once rt has ended (signals.test.mjs).
    assert.ok(await gone(script), "the script outlived rt");
    assert.deepEqual({ stdout, stderr }, { stdout: "ready\n", stderr: "$ echo $$ > script.pid; echo ready; sleep 30\n" });
  });

  test("SIGINT to rt is forwarded; a script that handles it decides the exit code", { timeout: 20_000 }, async (t) => {
    // The signal comes right after "ready": the script's loop has no command substitution there,
    // since bash 5.2 sometimes never runs its INT trap for a SIGINT that arrives while one runs
    // (`for i in $(seq ...)` lost 10 of 300 such signals; this loop none).
    const { child, ready, done } = startRt(t, ["run", "trap-int"], { cwd: plain });
    await ready;
    child.kill("SIGINT");
    const result = await done;
    assert.deepEqual([result.stdout, result.code], ["ready\ntrapped INT\n", 7]);
  });
});

describe("listing", () => {
  test("rt run lists every script with its command, ending with a count line", () => {
    const result = rt(["run"], { cwd: plain });
    const scripts = JSON.parse(readFileSync(path.join(plain, "package.json"), "utf8")).scripts;
    const blocks = Object.entries(scripts)
      .map(([name, command]) => `  $ rt run ${name}\n    ${command}\n\n`)
      .join("");
    same(result, { stdout: `${blocks}${Object.keys(scripts).length} scripts in package.json\n` });
    assert.ok(result.stdout.startsWith("  $ rt run clean\n    echo cleaning\n\n  $ rt run preclean\n    echo pre\n\n"));
  });

  test("rt run --json: name, command, package and directory of each script", () => {
    const listed = JSON.parse(rt(["run", "--json"], { cwd: path.join(plain, "nested") }).stdout);
    const scripts = JSON.parse(readFileSync(path.join(plain, "package.json"), "utf8")).scripts;
    assert.deepEqual(
      listed,
      Object.entries(scripts).map(([name, command]) => ({ name, command, package: "plain", dir: plain })),
    );
  });

  test("with --workspaces / --filter: the scripts of each selected package", () => {
    const listed = JSON.parse(rt(["run", "--json", "--workspaces"], { cwd: mono }).stdout);
    assert.deepEqual([...new Set(listed.map((s) => s.package))], ["bar", "baz", "foo"]);
    assert.deepEqual(
      listed.find((s) => s.package === "foo" && s.name === "only"),
      { name: "only", command: "echo only-in-foo", package: "foo", dir: path.join(mono, "packages", "foo") },
    );
    const text = rt(["run", "--filter", "foo"], { cwd: mono });
    same(text, {
      stdout:
        "foo (packages/foo/package.json):\n" +
        "  $ rt --filter foo build\n    for i in 1 2 3 4 5 6 7 8; do echo foo line $i; done\n\n" +
        '  $ rt --filter foo order\n    echo foo >> "$ORDER_LOG"\n\n' +
        "  $ rt --filter foo fail\n    echo foo ok\n\n" +
        "  $ rt --filter foo only\n    echo only-in-foo\n\n" +
        "  $ rt --filter foo tool\n    root-tool from foo\n\n" +
        "  $ rt --filter foo slow\n    for i in 1 2 3; do echo foo slow $i; sleep 0.1; done\n\n" +
        "  $ rt --filter foo long\n    for i in $(seq 1 30); do echo foo long $i; done\n\n" +
        "7 scripts in 1 packages\n",
    });
  });

  test("no package.json: rt run says so and lists nothing, exit 1", (t) => {
    const dir = tempDir(t);
    mistake(rt(["run"], { cwd: dir }), 1, `error: No package.json found in ${dir} or any parent directory\n`);
    mistake(rt(["run", "--json"], { cwd: dir }), 1, `error: No package.json found in ${dir} or any parent directory\n`);
  });
});

describe("flags", () => {
  test("--if-present: an absent script, file or binary exits 0 silently", () => {
    same(rt(["run", "--if-present", "nope"], { cwd: plain }), {});
    same(rt(["--if-present", "nope.ts"], { cwd: plain }), {});
    same(rt(["--if-present", "./nope"], { cwd: plain }), {});
    same(rt(["run", "--if-present", "clean"], { cwd: plain }), { stdout: "pre\ncleaning\npost\n", stderr: "$ echo pre\n$ echo cleaning\n$ echo post\n" });
  });

  test("--silent: no command echo and no failure line; the exit code stays", () => {
    same(rt(["run", "--silent", "clean"], { cwd: plain }), { stdout: "pre\ncleaning\npost\n" });
    same(rt(["run", "--silent", "fail"], { cwd: plain }), { code: 3 });
  });

  test("--rt / -b: `node` and #!/usr/bin/env node binaries in scripts run on rt; without it on node", () => {
    same(rt(["run", "runtime"], { cwd: plain }), {
      stdout: "on node\n",
      stderr: `$ node -e "console.log(typeof globalThis.rt === 'object' ? 'on rt' : 'on node')"\n`,
    });
    assert.equal(rt(["run", "--rt", "runtime"], { cwd: plain }).stdout, "on rt\n");
    assert.equal(rt(["-b", "run", "shebang-bin"], { cwd: plain }).stdout, "bin on rt\n");
    assert.equal(rt(["run", "shebang-bin"], { cwd: plain }).stdout, "bin on node\n");
    assert.equal(rt(["run", "--rt", "runtime-name"], { cwd: plain }).stdout, "bin on rt\n");
  });
});

describe("workspaces", () => {
  test("--filter globs package names: `ba*` runs bar and baz, not foo; off a terminal every line is prefixed", () => {
    const lines = (name) => Array.from({ length: 8 }, (_, i) => `${name} build: ${name} line ${i + 1}\n`).join("");
    // bar depends on baz (a dev dependency), so baz's build (and prebuild) ends first.
    same(rt(["--filter", "ba*", "build"], { cwd: mono }), {
      stdout: `baz prebuild: baz prebuild\nbaz prebuild: Exited with code 0\n${lines("baz")}baz build: Exited with code 0\n${lines("bar")}bar build: Exited with code 0\n`,
    });
  });

  test("packages run concurrently but in dependency order (dependencies and devDependencies)", (t) => {
    const log = path.join(tempDir(t), "order.log");
    for (const args of [
      ["--filter", "*", "order"],
      ["run", "--workspaces", "order"],
      ["run", "--parallel", "--workspaces", "order"],
    ]) {
      writeFileSync(log, "");
      const result = rt(args, { cwd: mono, env: { ORDER_LOG: log } });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(readFileSync(log, "utf8"), "baz\nbar\nfoo\n", args.join(" "));
    }
  });

  test("./path globs and !exclusions select packages too, and --filter repeats", () => {
    const ran = (args) =>
      rt([...args, "fail"], { cwd: mono })
        .stdout.split("\n")
        .filter((l) => l.includes("Exited"))
        .map((l) => l.split(" ")[0]);
    assert.deepEqual(ran(["--filter", "./packages/f*"]), ["foo"]);
    assert.deepEqual(ran(["--filter", "!foo"]), ["baz", "bar"]);
    assert.deepEqual(ran(["--filter", "*", "--filter", "!ba*"]), ["foo"]);
    assert.deepEqual(ran(["-F", "foo", "-F", "baz"]), ["baz", "foo"]);
    assert.deepEqual(
      rt(["--filter", "../bar", "fail"], { cwd: path.join(mono, "packages", "foo") }).stdout,
      "bar fail: bar failing\nbar fail: Exited with code 2\n",
    );
  });

  test("rt's exit code is non-zero when a package failed; the others still ran", () => {
    const result = rt(["--filter", "*", "fail"], { cwd: mono });
    assert.equal(result.code, 2);
    assert.deepEqual(
      result.stdout
        .split("\n")
        .filter((l) => l.includes("Exited"))
        .sort(),
      ["bar fail: Exited with code 2", "baz fail: Exited with code 0", "foo fail: Exited with code 0"],
    );
  });

  test("--filter skips packages without the script; --workspaces names the package that lacks it, unless --if-present", () => {
    same(rt(["--filter", "*", "only"], { cwd: mono }), { stdout: "foo only: only-in-foo\nfoo only: Exited with code 0\n" });
    mistake(
      rt(["run", "--workspaces", "only"], { cwd: mono }),
      1,
      `error: Missing "only" script in package bar (${path.join(mono, "packages", "bar")}); add it, or pass --if-present to skip packages without it\n`,
    );
    same(rt(["run", "--workspaces", "--if-present", "only"], { cwd: mono }), { stdout: "foo only: only-in-foo\nfoo only: Exited with code 0\n" });
    same(rt(["run", "--workspaces", "--if-present", "nosuch"], { cwd: mono }), {});
  });

  test("the root package is not a member; scripts see the ancestors' node_modules/.bin", () => {
    same(rt(["--filter", "foo", "tool"], { cwd: mono }), { stdout: "foo tool: root-tool: from foo\nfoo tool: Exited with code 0\n" });
    assert.doesNotMatch(rt(["--filter", "*", "build"], { cwd: mono }).stdout, /root package/);
  });

  test("no package matches the filter, or none has the script: clear errors", () => {
    mistake(rt(["--filter", "nomatch*", "build"], { cwd: mono }), 1, 'error: No workspace packages matched the filter "nomatch*" (packages: bar, baz, foo)\n');
    mistake(rt(["--filter", "*", "nosuch"], { cwd: mono }), 1, 'error: Script "nosuch" not found in 3 packages matching "*"\n');
  });

  test("a workspaces pattern matching nothing, a dependency cycle, --workspaces without workspaces: clear errors", () => {
    mistake(
      rt(["run", "--workspaces", "build"], { cwd: path.join(HERE, "bad-workspaces") }),
      1,
      `error: Workspace pattern "apps/*" in package.json matches no package (no apps/*/package.json under ${path.join(HERE, "bad-workspaces")}); fix or remove it\n`,
    );
    mistake(
      rt(["--filter", "*", "build"], { cwd: path.join(HERE, "cycle") }),
      1,
      'error: Dependency cycle between workspace packages: a → b → a; "build" cannot run in dependency order\n',
    );
    mistake(
      rt(["run", "--workspaces", "clean"], { cwd: plain }),
      1,
      `error: --workspaces: ${path.join(plain, "package.json")} has no "workspaces" field; add one, or use --filter\n`,
    );
  });

  test("a reader that goes away (| head) ends the output quietly; the scripts still run to the end", (t) => {
    const log = path.join(tempDir(t), "order.log");
    const script = `${rtCommand(["--filter", "*", "order"])} 2>&1 | head -1; echo "rt exited with \${PIPESTATUS[0]}"`;
    const result = spawnSync("bash", ["-c", script], { cwd: mono, env: { ...process.env, ORDER_LOG: log }, encoding: "utf8" });
    assert.equal(result.stdout, "baz order: Exited with code 0\nrt exited with 0\n");
    assert.equal(readFileSync(log, "utf8"), "baz\nbar\nfoo\n");
  });

  test("SIGTERM to rt reaches the running packages' groups and nothing new starts; rt exits with the first failure's code", { timeout: 20_000 }, async (t) => {
    const pids = path.join(tempDir(t), "pids");
    // @scope/web's wait waits for core's, which never ends by itself.
    const { child, ready, done } = startRt(t, ["--filter", "*", "wait"], { cwd: path.join(HERE, "workspace-rules"), env: { PIDS: pids } });
    await ready;
    const sleeper = Number(readFileSync(pids, "utf8"));
    child.kill("SIGTERM");
    same(await done, { stdout: "core wait: ready\ncore wait: Signaled: SIGTERM\n", code: 143 });
    assert.ok(await gone(sleeper), "the background job of core's script got the signal too");
  });

  test("without workspaces, --filter '*' is the package itself", () => {
    same(rt(["--filter", "*", "clean"], { cwd: plain }), {
      stdout:
        "plain preclean: pre\nplain preclean: Exited with code 0\nplain clean: cleaning\nplain clean: Exited with code 0\nplain postclean: post\nplain postclean: Exited with code 0\n",
    });
  });
});

describe("--parallel and --sequential", () => {
  test("--parallel: Foreman-style `label | line`, script output on stdout, a status line per step on stderr", () => {
    const result = rt(["run", "--parallel", "clean", "stderr"], { cwd: plain });
    assert.equal(result.code, 0);
    const byLabel = (text, label) => text.split("\n").filter((l) => l.startsWith(label));
    assert.deepEqual(byLabel(result.stdout, "clean "), ["clean  | pre", "clean  | cleaning", "clean  | post"]);
    assert.deepEqual(byLabel(result.stdout, "stderr"), ["stderr | to-stdout"]);
    assert.deepEqual(timeless(result.stderr).split("\n").filter(Boolean).sort(), [
      "clean  | Done in Nms",
      "clean  | Done in Nms",
      "clean  | Done in Nms",
      "stderr | Done in Nms",
      "stderr | to-stderr",
    ]);
  });

  test("--sequential stops at the first failure, whose exit code is rt's", () => {
    const result = rt(["run", "--sequential", "clean", "fail", "args"], { cwd: plain });
    sameButDurations(result, {
      stdout: "clean | pre\nclean | cleaning\nclean | post\n",
      stderr: "clean | Done in Nms\nclean | Done in Nms\nclean | Done in Nms\nfail  | Exited with code 3\n",
      code: 3,
    });
  });

  test("--no-exit-on-error runs the others after a failure", () => {
    const result = rt(["run", "--sequential", "--no-exit-on-error", "fail", "clean"], { cwd: plain });
    sameButDurations(result, {
      stdout: "clean | pre\nclean | cleaning\nclean | post\n",
      stderr: "fail  | Exited with code 3\nclean | Done in Nms\nclean | Done in Nms\nclean | Done in Nms\n",
      code: 3,
    });
  });

  test("--parallel: a failure interrupts the others (SIGINT to their process groups)", () => {
    const started = Date.now();
    const result = rt(["run", "--parallel", "fail", "slow"], { cwd: plain });
    assert.ok(Date.now() - started < 4000, "slow (sleep 5) was interrupted");
    same(result, { stderr: "fail | Exited with code 3\nslow | Signaled: SIGINT\n", code: 3 });
  });

  test("--parallel --no-exit-on-error lets the others finish", () => {
    const result = rt(["run", "--parallel", "--no-exit-on-error", "fail", "short"], { cwd: plain });
    sameButDurations(result, { stdout: "short | short done\n", stderr: "fail  | Exited with code 3\nshort | Done in Nms\n", code: 3 });
  });

  test("script names may be globs, in package.json order", () => {
    const result = rt(["run", "--sequential", "lint:*", "clean"], { cwd: plain });
    sameButDurations(result, {
      stdout: "lint:a | lint a\nlint:b | lint b\nclean  | pre\nclean  | cleaning\nclean  | post\n",
      stderr: "lint:a | Done in Nms\nlint:b | Done in Nms\nclean  | Done in Nms\nclean  | Done in Nms\nclean  | Done in Nms\n",
    });
  });

  test("with --filter / --workspaces the labels are <package>:<script>", () => {
    const result = rt(["run", "--sequential", "--workspaces", "fail"], { cwd: mono });
    sameButDurations(result, {
      stdout: "baz:fail | baz ok\nbar:fail | bar failing\n",
      stderr: "baz:fail | Done in Nms\nbar:fail | Exited with code 2\n",
      code: 2,
    });
    const parallel = rt(["run", "--parallel", "--filter", "foo", "fail", "only"], { cwd: mono });
    assert.deepEqual(parallel.stdout.split("\n").filter(Boolean).sort(), ["foo:fail | foo ok", "foo:only | only-in-foo"]);
  });

  test("usage mistakes: both modes, no names, an unknown name", () => {
    mistake(rt(["run", "--parallel", "--sequential", "clean"], { cwd: plain }), 2, "rt: --parallel and --sequential exclude each other: choose one\n");
    mistake(rt(["run", "--parallel"], { cwd: plain }), 2, "rt: --parallel needs the names of the scripts to run\n");
    mistake(rt(["run", "--parallel", "clean", "clen"], { cwd: plain }), 1, 'error: Script not found "clen" (did you mean "clean"?)\n');
  });
});

describe("bad input", () => {
  test("malformed package.json: file, line and column", () => {
    const cwd = path.join(HERE, "broken-json");
    const message = "package.json:5:3: error: Expected double-quoted property name in JSON at position 63 (line 5 column 3)\n";
    for (const args of [["run", "build"], ["run"], ["build-it"], ["--filter", "*", "build"]]) mistake(rt(args, { cwd }), 1, message);
  });

  test("an unknown script: the message and the closest names, exit 1", () => {
    mistake(rt(["run", "clen"], { cwd: plain }), 1, 'error: Script not found "clen" (did you mean "clean"?)\n');
    mistake(rt(["run", "lint:c"], { cwd: plain }), 1, 'error: Script not found "lint:c" (did you mean "lint:a" or "lint:b"?)\n');
    mistake(rt(["zzzzzzzz"], { cwd: plain }), 1, 'error: Script not found "zzzzzzzz"\n');
    mistake(rt(["nope.ts"], { cwd: plain }), 1, 'error: Module not found "nope.ts"\n');
  });

  test("--json with a script name is a usage mistake", () => {
    mistake(rt(["run", "--json", "clean"], { cwd: plain }), 2, "rt: --json lists the scripts: give no script name\n");
  });
});

describe("on a terminal", () => {
  test("the `$ command` echo and the failure line are coloured as Bun colours them", (t) => {
    const ok = underScript(t, rtCommand(["run", "clean"]), { cwd: plain });
    if (!ok) return;
    assert.equal(ok.code, 0);
    assert.equal(
      ok.output,
      "\x1b[0m\x1b[2m\x1b[35m$\x1b[0m \x1b[2m\x1b[1mecho pre\x1b[0m\npre\n\x1b[0m\x1b[2m\x1b[35m$\x1b[0m \x1b[2m\x1b[1mecho cleaning\x1b[0m\ncleaning\n\x1b[0m\x1b[2m\x1b[35m$\x1b[0m \x1b[2m\x1b[1mecho post\x1b[0m\npost\n",
    );
    const failed = underScript(t, rtCommand(["run", "fail"]), { cwd: plain });
    assert.equal(failed.code, 3);
    assert.equal(
      failed.output,
      '\x1b[0m\x1b[2m\x1b[35m$\x1b[0m \x1b[2m\x1b[1mexit 3\x1b[0m\n\x1b[0m\x1b[31merror\x1b[0m\x1b[2m:\x1b[0m script \x1b[1m"fail"\x1b[0m exited with code 3\x1b[0m\n',
    );
    const plainText = underScript(t, rtCommand(["run", "fail"]), { cwd: plain, env: { NO_COLOR: "1" } });
    assert.equal(plainText.output, '$ exit 3\nerror: script "fail" exited with code 3\n');
  });

  test("workspace scripts: a live view per package, then its lines and a done line", async (t) => {
    const screen = await inTmux(t, rtCommand(["--filter", "*", "build"]), { cwd: mono });
    if (!screen) return;
    const block = (name) =>
      `${name} build $ for i in 1 2 3 4 5 6 7 8; do echo ${name} line $i; done\n${Array.from({ length: 8 }, (_, i) => `│ ${name} line ${i + 1}\n`).join("")}└─ Done in N ms\n`;
    assert.equal(
      timeless(screen),
      `baz prebuild $ echo baz prebuild\n│ baz prebuild\n└─ Done in N ms\n${block("baz")}${block("bar")}${block("foo")}[exit code: 0]\n`,
    );
  });

  test("--elide-lines N keeps the last N lines of each package", async (t) => {
    const screen = await inTmux(t, rtCommand(["--filter", "ba*", "--elide-lines", "3", "build"]), { cwd: mono });
    if (!screen) return;
    const block = (name) =>
      `${name} build $ for i in 1 2 3 4 5 6 7 8; do echo ${name} line $i; done\n│ [5 lines elided]\n│ ${name} line 6\n│ ${name} line 7\n│ ${name} line 8\n└─ Done in N ms\n`;
    assert.equal(timeless(screen), `baz prebuild $ echo baz prebuild\n│ baz prebuild\n└─ Done in N ms\n${block("baz")}${block("bar")}[exit code: 0]\n`);
  });

  test("a failed package keeps every line and ends with its exit code; --elide-lines 0 shows all", async (t) => {
    const screen = await inTmux(t, rtCommand(["--filter", "ba*", "long"]), { cwd: mono, height: 30 });
    if (!screen) return;
    const bazTail = Array.from({ length: 10 }, (_, i) => `│ baz long ${i + 21}\n`).join("");
    const barAll = Array.from({ length: 30 }, (_, i) => `│ bar long ${i + 1}\n`).join("");
    assert.equal(
      timeless(screen),
      `baz long $ for i in $(seq 1 30); do echo baz long $i; done\n│ [20 lines elided]\n${bazTail}└─ Done in N ms\n` +
        `bar long $ for i in $(seq 1 30); do echo bar long $i; done; echo bar long failed >&2; exit 4\n${barAll}│ bar long failed\n└─ Exited with code 4\n[exit code: 4]\n`,
    );
    const all = await inTmux(t, rtCommand(["--filter", "baz", "--elide-lines", "0", "long"]), { cwd: mono });
    assert.equal(
      timeless(all),
      `baz long $ for i in $(seq 1 30); do echo baz long $i; done\n${Array.from({ length: 30 }, (_, i) => `│ baz long ${i + 1}\n`).join("")}└─ Done in N ms\n[exit code: 0]\n`,
    );
  });

  test("the live view redraws in synchronized-update frames with `Running...` while a package runs", (t) => {
    const result = underScript(t, rtCommand(["--filter", "foo", "slow"]), { cwd: mono });
    if (!result) return;
    assert.equal(result.code, 0);
    const frames = result.output.split("\x1b[?2026h").slice(1);
    assert.ok(frames.length >= 2, `several frames: ${JSON.stringify(result.output)}`);
    assert.ok(frames.every((frame) => frame.endsWith("\x1b[?2026l")));
    assert.ok(
      frames.some((frame) => frame.includes("\x1b[36m└─\x1b[0m \x1b[36mRunning...\x1b[0m")),
      "a running frame",
    );
    assert.match(
      frames.at(-1),
      /\x1b\[1mfoo\x1b\[0m slow \$ \x1b\[2mfor i in 1 2 3; do echo foo slow \$i; sleep 0\.1; done\x1b\[0m\n(\x1b\[36m│\x1b\[0m foo slow \d\n){3}\x1b\[36m└─\x1b\[0m \x1b\[36mDone in \d+ ms\x1b\[0m\n/,
    );
  });

  test("--parallel labels are coloured on a terminal", (t) => {
    const result = underScript(t, rtCommand(["run", "--sequential", "lint:a", "clean"]), { cwd: plain });
    if (!result) return;
    assert.equal(
      timeless(result.output),
      "\x1b[36mlint:a\x1b[0m | lint a\n\x1b[36mlint:a\x1b[0m | Done in Nms\n\x1b[33mclean \x1b[0m | pre\n\x1b[33mclean \x1b[0m | Done in Nms\n" +
        "\x1b[33mclean \x1b[0m | cleaning\n\x1b[33mclean \x1b[0m | Done in Nms\n\x1b[33mclean \x1b[0m | post\n\x1b[33mclean \x1b[0m | Done in Nms\n",
    );
  });

  test("a script reads the terminal: interactive input reaches it", async (t) => {
    const screen = await inTmux(t, rtCommand(["run", "read-input"]), { cwd: plain, waitFor: "$ read line", keys: ["typed words", "Enter"] });
    if (!screen) return;
    assert.equal(screen, '$ read line; echo "got: $line"\ntyped words\ngot: typed words\n[exit code: 0]\n');
  });
});

/** Starts rt; `ready` resolves once the script printed "ready". Whatever is left is killed when the test ends. */
function startRt(t, args, { cwd, env = {} }) {
  const [command, ...rest] = rtArgv(args);
  const child = spawn(command, rest, { cwd, env: { ...process.env, NO_COLOR: "1", ...env } });
  t.after(() => {
    child.kill("SIGKILL");
    child.stdout.destroy();
    child.stderr.destroy();
  });
  let stdout = "";
  let stderr = "";
  let onReady;
  const ready = new Promise((resolve) => (onReady = resolve));
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    stdout += chunk;
    if (stdout.includes("ready\n")) onReady();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const done = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, ready, done };
}

/** Whether process `pid` has ended (or is a zombie) within two seconds. */
async function gone(pid) {
  for (let waited = 0; waited < 2000; waited += 20) {
    try {
      if (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z")) return true;
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await sleep(20);
  }
  return false;
}
