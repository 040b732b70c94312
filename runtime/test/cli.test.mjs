// The command line: every form, the core flags, and every bad-input case, on real rt processes.
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { FIXTURES, REPO, rt, tempDir } from "./rt.mjs";

const cwd = path.join(FIXTURES, "cli");
const version = JSON.parse(readFileSync(path.join(REPO, "runtime", "package.json"), "utf8")).version;
const flags = await import(path.join(REPO, "runtime", "dist", "flags.cjs"));

function ok(result, stdout) {
  assert.equal(result.stderr, "");
  assert.equal(result.stdout, stdout);
  assert.equal(result.code, 0);
}

/** A user mistake: one clear message, the expected exit code, and no stack trace from inside rt. */
function mistake(result, code, pattern) {
  assert.equal(result.code, code, `exit code; stderr: ${result.stderr}`);
  assert.match(result.stderr, pattern);
  assert.doesNotMatch(result.stderr, /^\s+at /m, "no stack trace");
  assert.doesNotMatch(result.stderr, /dist\/cli\.cjs|Node\.js v/, "nothing from inside rt");
}

describe("forms", () => {
  test("rt <file> runs TypeScript", () => ok(rt(["hello.ts"], { cwd }), "hello from ts\n"));
  test("rt run <file>", () => ok(rt(["run", "hello.ts"], { cwd }), "hello from ts\n"));
  test("rt <absolute path>", () => ok(rt([path.join(cwd, "hello.ts")], { cwd: REPO }), "hello from ts\n"));
  test("rt <file without extension> finds the .ts file", () => ok(rt(["hello"], { cwd }), "hello from ts\n"));
  test("rt <script> runs a package.json script (the script runner has its own suite: scripts.test.mjs)", () => {
    const result = rt(["dev"], { cwd });
    assert.deepEqual([result.stdout, result.stderr, result.code], ["dev\n", "$ echo dev\n", 0]);
  });

  test("rt run - reads TypeScript with JSX from stdin, no temp file", () => {
    const input = "const n: number = 1; console.log(n, rt.main, import.meta.main, process.argv.slice(1));";
    ok(rt(["run", "-", "a", "b"], { cwd, input }), `1 ${path.join(cwd, "[stdin]")} true [ '-', 'a', 'b' ]\n`);
    const jsx = "const React = { createElement: (t: string) => t }; console.log(<p/>);";
    ok(rt(["--jsx-runtime=classic", "run", "-"], { cwd, input: jsx }), "p\n");
  });

  test("rt - reads stdin too", () => ok(rt(["-"], { cwd, input: "console.log(40 + 2)" }), "42\n"));

  test("-e / --eval runs TypeScript; arguments after the code reach process.argv", () => {
    ok(rt(["-e", "const x: number = 1; console.log(x, rt.version)"], { cwd }), `1 ${version}\n`);
    ok(rt(["--eval", "console.log(process.argv.slice(1))", "a", "--b"], { cwd }), "[ 'a', '--b' ]\n");
    ok(rt(["-e", "console.log(await Promise.resolve('tla'))"], { cwd }), "tla\n");
    ok(rt(["-e", "console.log(typeof require, __filename)"], { cwd }), `function ${path.join(cwd, "[eval]")}\n`);
  });

  test("-p / --print prints the value like console.log and awaits promises", () => {
    ok(rt(["-p", "1 + 1"], { cwd }), "2\n");
    ok(rt(["--print", "const x: number = 5; x * 2"], { cwd }), "10\n");
    ok(rt(["-p", "Promise.resolve({ a: 1, b: [1, 2] })"], { cwd }), "{ a: 1, b: [ 1, 2 ] }\n");
    ok(rt(["-p", "'str'"], { cwd }), "str\n");
    ok(rt(["-p", "undefined"], { cwd }), "undefined\n");
  });

  test("--version and -v print the version and the Node that runs rt (here the machine's, not rt's own)", () => {
    for (const flag of ["--version", "-v"]) {
      const result = rt([flag]);
      assert.deepEqual([result.stderr, result.code], ["", 0]);
      assert.match(result.stdout, /^(\d+\.\d+\.\d+) \(Node\.js v\d+\.\d+\.\d+ at \/\S+\)\n$/);
      assert.equal(result.stdout.split(" ")[0], version);
    }
  });

  test("--help, -h and a bare rt print the help generated from the flag table", () => {
    const help = rt(["--help"]);
    assert.equal(help.code, 0);
    assert.equal(rt(["-h"]).stdout, help.stdout);
    assert.equal(rt([]).stdout, help.stdout);
    for (const flag of flags.FLAGS) {
      const shown = flag.name.length === 1 ? `-${flag.name}` : `--${flag.name}`;
      assert.ok(help.stdout.includes(shown), `help mentions ${shown}`);
      assert.ok(help.stdout.includes(flag.help), `help has the text of ${shown}`);
    }
    for (const title of Object.values(flags.FLAG_GROUPS)) assert.ok(help.stdout.includes(`${title}:`), title);
    const golden = path.join(REPO, "runtime", "test", "golden", "help.txt");
    if (process.env.UPDATE_GOLDEN) writeFileSync(golden, help.stdout.replaceAll(version, "<version>"));
    assert.equal(help.stdout.replaceAll(version, "<version>"), readFileSync(golden, "utf8"));
  });

  test("everything after the file name reaches the program untouched", () => {
    ok(rt(["argv.ts", "--help", "-e", "x", "--", "--version"], { cwd }), '["--help","-e","x","--","--version"]\n');
    ok(rt(["run", "argv.ts", "--watch"], { cwd }), '["--watch"]\n');
    ok(rt(["--", "argv.ts", "-p"], { cwd }), '["-p"]\n');
  });
});

describe("transpilation flags", () => {
  test("--define K:V parses V as JSON; --flag=value, --flag value and -d all work, repeatably", () => {
    const result = rt(["--define", 'process.env.MODE:"prod"', "-d", "BUILD_NUMBER:42", '--define=FEATURES:{"fast":true}', "defines.ts"], { cwd });
    ok(result, "prod 42 true\n");
    ok(rt(["defines.ts"], { cwd, env: { MODE: "from-env" } }), "from-env none none\n");
  });

  test("--define applies to plain JavaScript too", () => {
    ok(rt(["--define", 'WHO:"js"', "-e", "console.log(WHO)"], { cwd }), "js\n");
  });

  test("--drop removes console calls and debugger statements", () => {
    ok(rt(["drop.ts"], { cwd }), "from console.log\nkept\ndone has-debugger\n");
    ok(rt(["--drop=console", "--drop", "debugger", "drop.ts"], { cwd }), "kept\ndone no-debugger\n");
  });

  test("--jsx-runtime=classic with React.createElement by default", () => {
    ok(
      rt(["--jsx-runtime=classic", "app.tsx"], { cwd }),
      '{"type":"section","props":{"id":"main"},"children":["hi"]} {"type":"fragment","props":null,"children":["x"]}\n',
    );
  });

  test("--jsx-factory and --jsx-fragment", () => {
    ok(
      rt(["--jsx-runtime", "classic", "--jsx-factory", "h", "--jsx-fragment=Fragment", "app.tsx"], { cwd }),
      '{"type":"section","props":{"id":"main"},"children":["hi"]} {"type":"my-fragment","props":null,"children":["x"]}\n',
    );
  });

  test("--jsx-import-source picks the automatic runtime's module (default react)", () => {
    ok(rt(["--jsx-import-source", "my-jsx", "jsx-automatic.tsx"], { cwd }), '{"runtime":"my-jsx","type":"b","props":{"title":"t","children":"bold"}}\n');
    mistake(rt(["jsx-automatic.tsx"], { cwd }), 1, /^error: Cannot find module 'react\/jsx-dev-runtime' from '.*jsx-automatic\.tsx'\n$/);
  });

  test("--tsconfig-override reads JSX settings from another tsconfig (comments and trailing commas allowed)", () => {
    ok(
      rt(["--tsconfig-override", "tsconfig.custom.json", "app.tsx"], { cwd }),
      '{"type":"section","props":{"id":"main"},"children":["hi"]} {"type":"my-fragment","props":null,"children":["x"]}\n',
    );
  });

  test("--tsconfig (tsx's name) is --tsconfig-override; both at once is one value too many", () => {
    ok(
      rt(["--tsconfig", "tsconfig.custom.json", "app.tsx"], { cwd }),
      '{"type":"section","props":{"id":"main"},"children":["hi"]} {"type":"my-fragment","props":null,"children":["x"]}\n',
    );
    mistake(
      rt(["--tsconfig-override", "tsconfig.custom.json", "--tsconfig=tsconfig.custom.json", "app.tsx"], { cwd }),
      2,
      /^rt: --tsconfig is given more than once; it takes one value\n$/,
    );
  });

  test("tsconfig.json's decorator setting is honoured: legacy with experimentalDecorators, else standard", () => {
    const dir = path.join(cwd, "decorators");
    ok(rt(["decorated.ts"], { cwd: dir }), "3 string\n");
    ok(rt(["--tsconfig-override", "standard.json", "decorated.ts"], { cwd: dir }), "2 object\n");
  });

  test("--jsx-side-effects and --ignore-dce-annotations drop the pure annotations", () => {
    ok(rt(["--jsx-runtime=classic", "pure.tsx"], { cwd }), "true true\n");
    ok(rt(["--jsx-runtime=classic", "--jsx-side-effects", "pure.tsx"], { cwd }), "false true\n");
    ok(rt(["--jsx-runtime=classic", "--ignore-dce-annotations", "pure.tsx"], { cwd }), "false false\n");
  });
});

describe("errors point at the original TypeScript", () => {
  const trailer = `\n\nrt v${version} (Node.js ${process.version}, ${process.platform} ${process.arch})\n`;

  // The preview's format is pinned by stack-traces.test.mjs; here: positions, no rt frames, exit 1.
  test("an uncaught error shows its stack with the original .ts lines and columns; exit 1", () => {
    const result = rt(["throws.ts"], { cwd });
    assert.equal(result.code, 1);
    const file = path.join(cwd, "throws.ts");
    assert.match(result.stderr, /^7 \| {3}throw new Error\(`boom at \$\{point\.x\},\$\{point\.y\}`\);\n {12}\^$/m);
    assert.ok(result.stderr.includes(`Error: boom at 1,2\n    at explode (${file}:7:9)\n    at ${file}:10:1\n`), result.stderr);
    assert.ok(result.stderr.endsWith(trailer));
    assert.doesNotMatch(result.stderr, /runtime[/\\](dist|bin)/, "no rt frames in the user's stack");
  });

  test("the same for a CommonJS module, without rt's frames below it", () => {
    const result = rt(["throws-cjs.cts"], { cwd });
    assert.equal(result.code, 1);
    const file = path.join(cwd, "throws-cjs.cts");
    assert.ok(result.stderr.includes(`TypeError: cjs failure\n    at fail (${file}:4:9)\n    at Object.<anonymous> (${file}:7:1)\n`), result.stderr);
    assert.doesNotMatch(result.stderr, /runtime[/\\](dist|bin)/);
  });

  test("a thrown non-error and an unhandled rejection are reported too; exit 1", () => {
    const thrown = rt(["-e", "throw 42"], { cwd });
    assert.deepEqual([thrown.code, thrown.stderr], [1, `42${trailer}`]);
    const rejected = rt(["-e", "Promise.reject(new RangeError('late'))"], { cwd });
    assert.equal(rejected.code, 1);
    assert.match(rejected.stderr, /^1 \| Promise\.reject\(new RangeError\('late'\)\)\n {19}\^\nRangeError: late\n/);
  });

  test("a program's own uncaughtException handler still decides", () => {
    ok(rt(["-e", "process.on('uncaughtException', (e) => console.log('handled', e.message)); throw new Error('x')"], { cwd }), "handled x\n");
  });

  test("error.stack inside the program has original positions", () => {
    ok(rt(["stack.ts"], { cwd }), `at where (${path.join(cwd, "stack.ts")}:4:17)\n`);
  });
});

describe("bad input", () => {
  test("a syntax error shows file:line:col, the message and the source line with a caret; exit 1", () => {
    const result = rt(["syntax-error.ts"], { cwd });
    mistake(result, 1, /./);
    assert.equal(result.stderr, 'syntax-error.ts:2:24: error: Unexpected "="\nconst broken: number = = 2;\n                       ^\n');
    assert.equal(result.stdout, "");
  });

  test("a missing file: one line naming it, exit 1", () => {
    mistake(rt(["nope.ts"], { cwd }), 1, /^error: Module not found "nope\.ts"\n$/);
    mistake(rt(["run", "./nope"], { cwd }), 1, /^error: Module not found "\.\/nope"\n$/);
  });

  test("a missing module: what was looked up and from where, exit 1", () => {
    mistake(rt(["missing-import.ts"], { cwd }), 1, /^error: Cannot find module '\.\/does-not-exist' from '.*missing-import\.ts'\n$/);
    mistake(rt(["missing-package.ts"], { cwd }), 1, /^error: Cannot find module 'no-such-package-anywhere' from '.*missing-package\.ts'\n$/);
  });

  test("a program can still catch a failed dynamic import", () => {
    ok(rt(["-e", "await import('./nowhere').catch((e) => console.log(e.code))"], { cwd }), "ERR_MODULE_NOT_FOUND\n");
  });

  test("an unknown flag names the flag and suggests the closest, exit 2", () => {
    mistake(rt(["--defin", "X:1", "hello.ts"], { cwd }), 2, /^rt: unknown flag --defin\. Did you mean --define\? Run "rt --help" to see every flag\.\n$/);
    mistake(rt(["-Z", "hello.ts"], { cwd }), 2, /^rt: unknown flag -Z\./);
  });

  test("bad --define values name the flag and the expected form, exit 2", () => {
    mistake(rt(["--define", "X:prod", "hello.ts"], { cwd }), 2, /^rt: invalid --define value for X: "prod" is not JSON/);
    mistake(rt(["--define", "noColon", "hello.ts"], { cwd }), 2, /^rt: invalid --define "noColon": expected KEY:VALUE/);
    mistake(rt(["--define", "1x:1", "hello.ts"], { cwd }), 2, /^rt: invalid --define key "1x"/);
  });

  test("an unknown loader lists the valid loaders, exit 2", () => {
    mistake(
      rt(["--loader", ".x:yaml", "hello.ts"], { cwd }),
      2,
      /^rt: invalid loader "yaml" in --loader \.x:yaml; valid loaders: js, jsx, ts, tsx, json, toml, text, file, wasm, napi\n$/,
    );
    mistake(rt(["--loader", "x", "hello.ts"], { cwd }), 2, /^rt: invalid --loader "x": expected \.ext:loader/);
  });

  test("a value outside a flag's choices lists them, exit 2", () => {
    mistake(rt(["--jsx-runtime=preact", "hello.ts"], { cwd }), 2, /^rt: invalid value "preact" for --jsx-runtime; valid values: automatic, classic\n$/);
    mistake(rt(["--drop=alert", "hello.ts"], { cwd }), 2, /^rt: invalid value "alert" for --drop; valid values: console, debugger\n$/);
  });

  test("a non-numeric value for a number flag, exit 2", () => {
    mistake(rt(["--console-depth=deep", "hello.ts"], { cwd }), 2, /^rt: invalid value "deep" for --console-depth: expected a whole number >= 0\n$/);
    mistake(rt(["--port", "80a", "hello.ts"], { cwd }), 2, /^rt: invalid value "80a" for --port: expected a whole number from 0 to 65535\n$/);
  });

  test("a flag that needs a value and got none, exit 2", () => {
    mistake(rt(["--define"], { cwd }), 2, /^rt: --define needs a value \(<K:V>\)\n$/);
    mistake(rt(["-e"], { cwd }), 2, /^rt: -e needs a value/);
  });

  test("a boolean flag given a value, exit 2", () => {
    mistake(rt(["--preserve-symlinks=yes", "hello.ts"], { cwd }), 2, /^rt: --preserve-symlinks takes no value \(got "yes"\)\n$/);
  });

  test("a missing --tsconfig-override file, exit 2", () => {
    mistake(rt(["--tsconfig-override", "nope.json", "hello.ts"], { cwd }), 2, /^rt: --tsconfig-override: no such file: .*nope\.json\n$/);
  });
});

describe("rt --test: Node's test runner on rt's loader", () => {
  const tests = path.join(FIXTURES, "test-runner");
  // Without the variable that makes a runner started by this test runner report to it.
  const env = { NODE_TEST_CONTEXT: undefined };

  test("with no file arguments it runs the directory's *.test.ts/.tsx files (an enum, an extensionless import, JSX by the tsconfig); a failure: the runner's summary and exit code 1", () => {
    const result = rt(["--test"], { cwd: tests, env });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /^✔ sign of a negative number \(/m);
    assert.match(result.stdout, /^✔ sign of zero \(/m);
    assert.match(result.stdout, /^✖ jsx element fails on purpose \(/m);
    assert.match(result.stdout, /^ℹ tests 3\nℹ suites 0\nℹ pass 2\nℹ fail 1\n/m);
  });

  test("--test-name-pattern filters (Node's flag, handed over); a directory argument means its test files", () => {
    const result = rt(["--test", "--test-name-pattern", "^sign", "--test-reporter=spec", "test-runner"], { cwd: FIXTURES, env });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^✔ sign of zero \(/m);
    assert.doesNotMatch(result.stdout, /jsx element/);
    assert.match(result.stdout, /^✔ sign of a negative number \(/m);
    assert.match(result.stdout, /^ℹ fail 0\n/m);
  });

  test("--experimental-test-coverage reports the program's TypeScript files: not the test files (Node's default), not rt's own bundles", (t) => {
    // Outside this repository's test/ directory: Node's default exclude (**/test/**) matches absolute paths too.
    const project = tempDir(t);
    cpSync(tests, path.join(project, "test-runner"), { recursive: true });
    const files = (args) => {
      const result = rt(["--test", "--experimental-test-coverage", "--test-reporter=spec", ...args, "test-runner/math.test.ts"], { cwd: project, env });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const report = result.stdout.slice(result.stdout.indexOf("start of coverage report"));
      return [...report.matchAll(/^ℹ +([^ |]+) +\|/gm)].map((row) => row[1]).filter((name) => name !== "file" && name !== "all");
    };
    assert.deepEqual(files([]), ["test-runner", "math.ts"]);
    // Given an exclude of one's own, Node's default goes (as under node --test): rt's bundles still stay out.
    assert.deepEqual(files(["--test-coverage-exclude=**/math.ts"]), ["test-runner", "math.test.ts"]);
  });

  test("--experimental-test-coverage names the untested lines of the TypeScript as written, in a large file too (its map beside the cache entry)", (t) => {
    const project = tempDir(t);
    // Types make every line longer than its JavaScript: counted against the generated offsets, the lines would be wrong.
    const filler = Array.from({ length: 1500 }, (_, i) => `export const value${i}: Readonly<Record<string, number>> = { n: ${i} };`);
    const add = "export function add(a: number, b: number): number {\n  if (a < 0) {\n    return -1;\n  }\n  return a + b;\n}\n";
    writeFileSync(path.join(project, "large.ts"), `${filler.join("\n")}\n${add}`);
    writeFileSync(path.join(project, "small.ts"), add);
    writeFileSync(
      path.join(project, "add.test.ts"),
      'import { test } from "node:test";\nimport assert from "node:assert";\nimport * as large from "./large.ts";\nimport * as small from "./small.ts";\n' +
        'test("add", () => { assert.equal(large.add(1, 2), 3); assert.equal(small.add(1, 2), 3); });\n',
    );
    const cacheEnv = { ...env, RT_TRANSPILER_CACHE_PATH: path.join(project, "cache") };
    for (const run of ["transpiled now", "from the cache"]) {
      const result = rt(["--test", "--experimental-test-coverage", "--test-reporter=spec", "add.test.ts"], { cwd: project, env: cacheEnv });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const uncovered = Object.fromEntries([...result.stdout.matchAll(/^ℹ +(\w+\.ts) +\|[^|]+\|[^|]+\|[^|]+\| (.*)$/gm)].map((row) => [row[1], row[2].trim()]));
      assert.deepEqual(uncovered, { "large.ts": "1503-1504", "small.ts": "3-4" }, run);
    }
  });

  test("--test-* flags need --test; --test refuses what runs in rt's own process", () => {
    mistake(
      rt(["--test-name-pattern=x", "hello.ts"], { cwd }),
      2,
      /^rt: --test-name-pattern applies to Node's test runner: add --test \(rt --test --test-name-pattern \.\.\.\)\n$/,
    );
    mistake(rt(["--test", "--hot"], { cwd }), 2, /^rt: --hot does not apply to rt --test: the test files run in processes of Node's test runner\n$/);
  });
});
