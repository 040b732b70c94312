// rtfig.toml: defaults under the command line, its errors and warnings, and its JSON Schema.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, test } from "node:test";
import { FIXTURES, REPO, rt, runOk } from "./rt.mjs";

const dir = path.join(FIXTURES, "config");
const project = path.join(dir, "project");
const invalid = path.join(dir, "invalid");
const require = createRequire(import.meta.url);

describe("rtfig.toml", () => {
  test("$cwd/rtfig.toml supplies defaults: preload, consoleDepth, define and loader tables, title, unhandled-rejections", () => {
    assert.equal(
      runOk(project, ["app.ts"]),
      "preloaded=setup.ts mode=from-config build=1 cfg=from .cfg title=config-title\n{\n  a: { b: { c: { d: [Object] } } }\n}\n",
    );
    // unhandled-rejections = "warn" from the file: a warning, exit 0.
    const rejected = rt(["-e", "Promise.reject(new Error('late'))"], { cwd: project });
    assert.equal(rejected.code, 0);
    assert.match(rejected.stderr, /UnhandledPromiseRejectionWarning: Error: late/);
  });

  test("the command line wins; list flags add to the file's (the command line's entry wins for the same key)", () => {
    assert.equal(
      runOk(project, ["--console-depth=1", "--define", "BUILD:2", "--title", "cli-title", "app.ts"]),
      "preloaded=setup.ts mode=from-config build=2 cfg=from .cfg title=cli-title\n{ a: { b: [Object] } }\n",
    );
  });

  test("--config/-c reads another file instead (kebab-case keys; no-env-file turns .env loading off)", () => {
    assert.equal(runOk(project, ["env.ts"]), "FROM_DOTENV=yes FROM_FILE=-\n");
    assert.equal(runOk(project, ["--config", "other.toml", "env.ts"]), "FROM_DOTENV=- FROM_FILE=-\n");
    assert.equal(
      runOk(project, ["-c", "other.toml", "--env-file", "extra.env", "-e", "console.log({ a: { b: 1 } }, process.env.FROM_FILE)"]),
      "{ a: [Object] } yes\n",
    );
  });

  test("a missing --config file is an error (exit 2); a missing default rtfig.toml is not", () => {
    const missing = rt(["--config", "nope.toml", "env.ts"], { cwd: project });
    assert.deepEqual([missing.code, missing.stderr, missing.stdout], [2, "rt: --config: no such file: nope.toml\n", ""]);
    assert.equal(runOk(FIXTURES, ["-e", "console.log('no config')"]), "no config\n");
  });

  test("a TOML syntax error: rt: file:line:column, the message, the line and a caret; exit 2", () => {
    const result = rt(["-c", "syntax.toml", "-e", "1"], { cwd: dir });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'rt: syntax.toml:3:14: invalid TOML: control characters are not allowed in strings\ntitle = "open\n             ^\n');
    assert.equal(result.stdout, "");
  });

  test("a wrongly typed value: an error naming file:line:col, the key and what it must be; exit 2", () => {
    const cases = {
      "wrong-type.toml": 'rt: wrong-type.toml:1:1: invalid value for "consoleDepth": expected a whole number >= 0, got "deep"\n',
      "bad-loader.toml":
        'rt: bad-loader.toml:1:1: invalid value for "loader": the value of ".cfg" must be one of js, jsx, ts, tsx, json, toml, text, file, wasm, napi, got "yaml"\n',
    };
    for (const [file, message] of Object.entries(cases)) {
      const result = rt(["-c", file, "-e", "console.log('ran')"], { cwd: invalid });
      assert.deepEqual([result.code, result.stderr, result.stdout], [2, message, ""], file);
    }
  });

  test("unknown keys and command-line-only flags: a warning naming file:line:col, then the program runs", () => {
    const cases = {
      "unknown-key.toml": 'rt: warning: unknown-key.toml:1:1: unknown key "smoll" (did you mean "smol"?); ignored\n',
      "command-line-only.toml": 'rt: warning: command-line-only.toml:1:1: "watch" (--watch) applies to one invocation: give it on the command line; ignored\n',
      "unknown-run-key.toml": 'rt: warning: unknown-run-key.toml:3:1: unknown key "run.shel" (did you mean "run.shell"?); ignored\n',
    };
    for (const [file, message] of Object.entries(cases)) {
      assert.deepEqual(rt(["-c", file, "-e", "console.log('ran')"], { cwd: invalid }), { code: 0, signal: null, stdout: "ran\n", stderr: message }, file);
    }
  });

  test("a flag set twice (kebab-case and camelCase) is an error; exit 2", () => {
    const result = rt(["-c", "twice.toml", "-e", "1"], { cwd: invalid });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^rt: twice\.toml:2:1: "consoleDepth" sets --console-depth again \(already set by "console-depth"\)\n$/);
  });
});

describe("the JSON Schema of rtfig.toml", () => {
  const schemaFile = path.join(REPO, "runtime", "schema", "rtfig.schema.json");
  const generated = `${JSON.stringify(require(path.join(REPO, "runtime", "dist", "schema.cjs")).rtfigSchema(), null, 2)}\n`;

  test("the committed runtime/schema/rtfig.schema.json is the one the flag table generates (UPDATE_GOLDEN=1 rewrites it)", () => {
    if (process.env.UPDATE_GOLDEN) {
      mkdirSync(path.dirname(schemaFile), { recursive: true });
      writeFileSync(schemaFile, generated);
    }
    assert.equal(readFileSync(schemaFile, "utf8"), generated);
  });

  const Ajv = require("ajv");
  const { parse } = require("smol-toml");
  let compiled;
  const validate = (value) => {
    compiled ??= new Ajv({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(schemaFile, "utf8")));
    validate.errors = compiled.errors;
    const valid = compiled(value);
    validate.errors = compiled.errors;
    return valid;
  };
  const examples = (folder) =>
    readdirSync(path.join(dir, folder))
      .filter((name) => name.endsWith(".toml"))
      .map((name) => path.join(dir, folder, name));

  test("example configs validate, and rt reads each of them without a warning", () => {
    const files = [...examples("examples"), path.join(project, "rtfig.toml"), path.join(project, "other.toml")];
    for (const file of files) {
      assert.ok(validate(parse(readFileSync(file, "utf8"))), `${file}: ${JSON.stringify(validate.errors)}`);
    }
    // Only keys of features that have landed are read without a warning.
    const code = "[globalThis.instrumented, process.env.SHARED, process.env.SECRET, typeof gc, process.title].join(' ')";
    const result = rt(["-c", "every-form.toml", "-p", code], { cwd: path.join(dir, "examples") });
    assert.deepEqual([result.code, result.stderr, result.stdout], [0, "", "true from-shared from-secret function my-service\n"]);
  });

  test("configs with unknown keys or wrong types do not validate", () => {
    for (const file of examples("invalid").filter((name) => !name.endsWith("syntax.toml") && !name.endsWith("twice.toml"))) {
      assert.equal(validate(parse(readFileSync(file, "utf8"))), false, file);
    }
  });
});
