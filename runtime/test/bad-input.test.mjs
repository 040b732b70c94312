// Bad input, generated: every flag of the flag table given wrongly, and the project files rt
// reads (package.json, rtfig.toml, tsconfig.json, .env) broken in each way a user meets. Each
// case checks what the README's error conventions promise: the exit code (2 for the command line
// and rtfig.toml/.env, 1 for package.json/tsconfig.json), one message naming the flag or the file
// (file:line:column where there is a position), and no stack trace from inside rt.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, test } from "node:test";
import { REPO, RT_BIN, tempDir } from "./rt.mjs";
import { spawn } from "node:child_process";

const { FLAGS } = createRequire(import.meta.url)(path.join(REPO, "runtime", "dist", "flags.cjs"));
const BOM = "\uFEFF";

/** rt in `cwd`, uncached (these runs only fail or print a line); resolves { code, stdout, stderr }. */
function run(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--", RT_BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", RT_TRANSPILER_CACHE_PATH: "0", NODE_ENV: "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the cases two at a time (the machine is shared); each case's result next to its case. */
async function runAll(cases, cwd) {
  const results = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      results[i] = await run(cases[i].args, cases[i].cwd ?? cwd);
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

/** No frame of a stack (rt's own or Node's) and no path into rt's bundle. */
function assertNoStack(stderr, label) {
  assert.doesNotMatch(stderr, /^\s+at .+[(:]/m, `${label}: a stack trace\n${stderr}`);
  assert.doesNotMatch(stderr, /dist\/\w+\.cjs|node:internal/, `${label}: rt's or Node's internals\n${stderr}`);
}

/** One line (no code frame for the command line), the exit code, the flag or file named. */
function assertMistake(result, { code, message, lines = 1 }, label) {
  assertNoStack(result.stderr, label);
  assert.equal(result.code, code, `${label}: exit code\n${result.stderr}`);
  assert.match(result.stderr.trimEnd(), message, label);
  assert.equal(result.stderr.trimEnd().split("\n").length, lines, `${label}: ${lines} line(s)\n${result.stderr}`);
}

describe("every flag of the flag table, given wrongly: one `rt: ...` line naming it, exit 2", () => {
  const cases = [];
  for (const flag of FLAGS) {
    const before = flag.command ? [flag.command] : [];
    const long = flag.name.length > 1 ? `--${flag.name}` : undefined;
    const short = flag.short ? `-${flag.short}` : flag.name.length === 1 ? `-${flag.name}` : undefined;
    const named = (shown, rest) => new RegExp(`^rt: .*${shown.replace(/[-.]/g, "\\$&")}\\b${rest}`);
    const add = (what, args, shown, rest) => cases.push({ label: `rt ${args.join(" ")} (${what})`, args, expect: { code: 2, message: named(shown, rest) } });
    if (flag.type !== "boolean" && !flag.optionalValue) {
      for (const shown of [long, short].filter(Boolean)) add("missing value", [...before, shown], shown, ".* needs a value");
    }
    if (flag.type === "boolean" && long) add("a value for a boolean", [...before, `${long}=maybe`, "a.ts"], long, ' takes no value \\(got "maybe"\\)');
    if (flag.type === "number") add("wrong type", [...before, `${long}=many`, "a.ts"], long, ": expected a whole number");
    if (flag.values) add("unknown enum value", [...before, `${long}=not-a-value`, "a.ts"], long, `; valid values: ${flag.values.join(", ")}`);
    if (flag.type === "string" || flag.type === "number") {
      const valid = flag.values?.[0] ?? (flag.type === "number" ? String(flag.min ?? 1) : "x");
      add("repeated single-value flag", [...before, `${long}=${valid}`, `${long}=${valid}`, "a.ts"], long, " is given more than once; it takes one value");
    }
  }

  test(`${cases.length} cases from ${FLAGS.length} flags`, async (t) => {
    const dir = tempDir(t);
    writeFileSync(path.join(dir, "a.ts"), 'console.log("ran");\n');
    const results = await runAll(cases, dir);
    cases.forEach(({ label, expect }, i) => assertMistake(results[i], expect, label));
    // Every kind of mistake was generated from the table, not only some.
    for (const kind of ["missing value", "a value for a boolean", "wrong type", "unknown enum value", "repeated single-value flag"]) {
      assert.ok(
        cases.some((c) => c.label.endsWith(`(${kind})`)),
        kind,
      );
    }
  });

  test("an unknown KEY:VALUE loader names the flag and the valid loaders", async (t) => {
    const dir = tempDir(t);
    writeFileSync(path.join(dir, "a.ts"), 'console.log("ran");\n');
    const result = await run(["--loader", ".x:bogus", "a.ts"], dir);
    assertMistake(result, { code: 2, message: /^rt: invalid loader "bogus" in --loader \.x:bogus; valid loaders: js, / }, "--loader .x:bogus");
  });
});

/**
 * A project with `files` (name → text, or { dir: true }, or { loop: true } for a symbolic link
 * to itself) and an a.ts that prints GOOD from the environment.
 */
function project(t, files) {
  const dir = tempDir(t);
  writeFileSync(path.join(dir, "a.ts"), 'console.log("ran", process.env.GOOD ?? "-");\n');
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    if (content.dir) mkdirSync(file);
    else if (content.loop) symlinkSync(path.basename(name), file);
    else writeFileSync(file, content);
  }
  return dir;
}

const ran = (good = "-") => ({ code: 0, stdout: `ran ${good}\n`, stderr: "" });
const SCRIPTS = '{ "scripts": { "hi": "echo hi" } }';

/** [label, files, args, expected]: expected is a run's { code, stdout, stderr } or a mistake. */
const FILE_CASES = [
  // package.json: a file run reads its "type"; rt run reads its scripts
  [
    "package.json syntax error, running a file",
    { "package.json": '{\n  "type": }\n' },
    ["a.ts"],
    { code: 1, message: /^package\.json:2:11: error: Unexpected token '}'$/m },
  ],
  ["package.json syntax error, rt run", { "package.json": '{ "scripts": { "hi": } }' }, ["run", "hi"], { code: 1, message: /^package\.json:1:22: error: / }],
  ["package.json not an object", { "package.json": "[]" }, ["run", "hi"], { code: 1, message: /^error: package\.json: expected a JSON object$/ }],
  [
    "package.json workspaces of the wrong type",
    { "package.json": '{ "workspaces": 5 }' },
    ["--workspaces", "hi"],
    { code: 1, message: /^error: package\.json: "workspaces" must be an array/ },
  ],
  [
    "package.json a directory, rt run",
    { "package.json": { dir: true } },
    ["run", "hi"],
    { code: 1, message: /^error: cannot read package\.json: is a directory, not a file$/ },
  ],
  ["package.json a directory, running a file (Node skips it too)", { "package.json": { dir: true } }, ["a.ts"], ran()],
  [
    "package.json a symbolic link loop, running a file",
    { "package.json": { loop: true } },
    ["a.ts"],
    { code: 1, message: /^error: cannot read package\.json: is a symbolic link loop$/ },
  ],
  [
    "package.json a symbolic link loop, rt run",
    { "package.json": { loop: true } },
    ["run", "hi"],
    { code: 1, message: /^error: cannot read package\.json: is a symbolic link loop$/ },
  ],
  ["package.json empty, running a file", { "package.json": "" }, ["a.ts"], { code: 1, message: /^package\.json:1:1: error: Unexpected end of JSON input$/ }],
  ["package.json empty, rt run", { "package.json": "" }, ["run", "hi"], { code: 1, message: /^package\.json:1:1: error: Unexpected end of JSON input$/ }],
  ["package.json with a BOM, rt run", { "package.json": BOM + SCRIPTS }, ["run", "hi"], { code: 0, stdout: "hi\n", stderr: "$ echo hi\n" }],
  ["package.json with a BOM, running a file", { "package.json": `${BOM}{ "type": "module" }` }, ["a.ts"], ran()],
  // rtfig.toml: defaults for the command line, so its mistakes are command-line mistakes (exit 2)
  ["rtfig.toml syntax error", { "rtfig.toml": "console-depth = 3\n[run\n" }, ["a.ts"], { code: 2, message: /^rt: rtfig\.toml:2:5: invalid TOML: /, lines: 3 }],
  [
    "rtfig.toml wrong type",
    { "rtfig.toml": 'console-depth = "deep"\n' },
    ["a.ts"],
    { code: 2, message: /^rt: rtfig\.toml:1:1: invalid value for "console-depth": expected a whole number >= 0, got "deep"$/ },
  ],
  [
    "rtfig.toml unknown enum value",
    { "rtfig.toml": '\n[run]\nshell = "fish"\n' },
    ["a.ts"],
    { code: 2, message: /^rt: rtfig\.toml:3:1: invalid value for "run\.shell": expected one of system, rt, got "fish"$/ },
  ],
  ["rtfig.toml a directory", { "rtfig.toml": { dir: true } }, ["a.ts"], { code: 2, message: /^rt: rtfig\.toml: is a directory, not a file$/ }],
  ["--config a directory", { conf: { dir: true } }, ["--config", "conf", "a.ts"], { code: 2, message: /^rt: --config conf: is a directory, not a file$/ }],
  ["rtfig.toml a symbolic link loop", { "rtfig.toml": { loop: true } }, ["a.ts"], { code: 2, message: /^rt: rtfig\.toml: is a symbolic link loop$/ }],
  ["rtfig.toml empty", { "rtfig.toml": "" }, ["a.ts"], ran()],
  [
    "rtfig.toml with a BOM: read, positions as the editor shows them",
    { "rtfig.toml": `${BOM}console-depth = "deep"\n` },
    ["a.ts"],
    { code: 2, message: /^rt: rtfig\.toml:1:1: invalid value for "console-depth"/ },
  ],
  ["rtfig.toml with a BOM", { "rtfig.toml": `${BOM}console-depth = 4\n` }, ["a.ts"], ran()],
  // tsconfig.json: the project's own file, as package.json (exit 1)
  [
    "tsconfig.json syntax error",
    { "tsconfig.json": '{\n  "compilerOptions": { "jsx": }\n}' },
    ["a.ts"],
    { code: 1, message: /^tsconfig\.json:2:31: error: ValueExpected$/ },
  ],
  [
    "tsconfig.json wrong type",
    { "tsconfig.json": '{\n  "compilerOptions": {\n    "experimentalDecorators": "yes"\n  }\n}' },
    ["a.ts"],
    { code: 1, message: /^tsconfig\.json:3:31: error: compilerOptions\.experimentalDecorators must be true or false$/ },
  ],
  [
    "tsconfig.json paths of the wrong type",
    { "tsconfig.json": '{ "compilerOptions": { "paths": { "@/*": "src/*" } } }' },
    ["a.ts"],
    { code: 1, message: /^tsconfig\.json:1:42: error: compilerOptions\.paths\.@\/\* must be an array of strings$/ },
  ],
  [
    "tsconfig.json a directory",
    { "tsconfig.json": { dir: true } },
    ["a.ts"],
    { code: 1, message: /^error: cannot read tsconfig\.json: is a directory, not a file$/ },
  ],
  [
    "tsconfig.json a symbolic link loop",
    { "tsconfig.json": { loop: true } },
    ["a.ts"],
    { code: 1, message: /^error: cannot read tsconfig\.json: is a symbolic link loop$/ },
  ],
  ["tsconfig.json empty", { "tsconfig.json": "" }, ["a.ts"], { code: 1, message: /^tsconfig\.json:1:1: error: ValueExpected$/ }],
  [
    "the nearest tsconfig.json, in a subfolder, a symbolic link loop",
    { "sub/tsconfig.json": { loop: true }, "sub/b.ts": "console.log(1);\n" },
    ["sub/b.ts"],
    { code: 1, message: /^error: cannot read sub\/tsconfig\.json: is a symbolic link loop$/ },
  ],
  ["tsconfig.json with a BOM", { "tsconfig.json": `${BOM}{ "compilerOptions": { "strict": true } }` }, ["a.ts"], ran()],
  [
    "tsconfig.json extends a missing file: one warning, and the program runs",
    { "tsconfig.json": '{ "extends": "./base.json" }' },
    ["a.ts"],
    { code: 0, stdout: "ran -\n", stderr: 'rt: warning: tsconfig.json: "extends": cannot find tsconfig "./base.json"; going on without it\n' },
  ],
  [
    "tsconfig.json extends a missing package",
    { "tsconfig.json": '{ "extends": "@nowhere/tsconfig" }' },
    ["a.ts"],
    { code: 0, stdout: "ran -\n", stderr: 'rt: warning: tsconfig.json: "extends": cannot find tsconfig "@nowhere/tsconfig"; going on without it\n' },
  ],
  // .env: parsed leniently as Node and Bun do (a line that is not NAME=value is skipped)
  [".env with lines that are not NAME=value", { ".env": 'this is not\n=x\n"unterminated\nGOOD=yes\n' }, ["a.ts"], ran("yes")],
  [".env a directory (often a Python virtualenv): skipped", { ".env": { dir: true } }, ["a.ts"], ran()],
  [
    "--env-file a directory",
    { envs: { dir: true } },
    ["--env-file", "envs", "a.ts"],
    { code: 2, message: /^rt: --env-file envs: is a directory, not a file$/ },
  ],
  [".env a symbolic link loop", { ".env": { loop: true } }, ["a.ts"], { code: 2, message: /^rt: \.env: is a symbolic link loop$/ }],
  [".env empty", { ".env": "" }, ["a.ts"], ran()],
  [".env with a BOM: the first name is GOOD, not \\uFEFFGOOD", { ".env": `${BOM}GOOD=bom\n` }, ["a.ts"], ran("bom")],
];

describe("broken project files: package.json, rtfig.toml, tsconfig.json, .env", () => {
  test(`${FILE_CASES.length} cases`, async (t) => {
    const cases = FILE_CASES.map(([label, files, args, expected]) => ({ label, args, cwd: project(t, files), expected }));
    const results = await runAll(cases);
    cases.forEach(({ label, expected, args }, i) => {
      const result = results[i];
      const shown = `${label}: rt ${args.join(" ")}`;
      if (expected.message) assertMistake(result, expected, shown);
      else assert.deepEqual(result, expected, shown);
    });
  });
});
