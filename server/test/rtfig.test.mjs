// rtfig.toml through the language server over stdio: schema diagnostics at the key or value
// they concern, syntax errors at their token, key and value completion per table, hover docs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { assertGolden, FIXTURES, positionOf } from "./lsp.mjs";
import { sharedServer } from "./suite.mjs";

const server = sharedServer();

const CONFIG = path.join(FIXTURES, "config", "rtfig.toml");
const CONFIG_TEXT = readFileSync(CONFIG, "utf8");
// Documents the editor has open but never saved: the server reads the text it is sent.
const SCRATCH = path.join(FIXTURES, "scratch", "rtfig.toml");

const line = (text, needle) => positionOf(text, needle).line;
const rangeAt = (text, needle, length = needle.length) => {
  const start = positionOf(text, needle);
  return { start, end: { line: start.line, character: start.character + length } };
};

test("diagnostics from the schema: unknown keys, wrong types, values outside an enum, a flag set twice, each where it is written", async () => {
  const { diagnostics } = await server.open(CONFIG);
  assertGolden("rtfig-diagnostics", diagnostics);
  const byLine = new Map(diagnostics.map((diagnostic) => [diagnostic.range.start.line, diagnostic]));
  assert.deepEqual(byLine.get(line(CONFIG_TEXT, "console-depth")).range, rangeAt(CONFIG_TEXT, "-1"));
  assert.equal(byLine.get(line(CONFIG_TEXT, "console-depth")).message, 'invalid value for "console-depth": expected a whole number >= 0, got -1');
  assert.deepEqual(byLine.get(line(CONFIG_TEXT, "preload")).range, rangeAt(CONFIG_TEXT, "3]", 1), "the wrong element of a list");
  assert.deepEqual(byLine.get(line(CONFIG_TEXT, "colour")).range, rangeAt(CONFIG_TEXT, "colour"));
  assert.equal(byLine.get(line(CONFIG_TEXT, "colour")).severity, 2, "rt warns about an unknown key and goes on");
  assert.equal(byLine.get(line(CONFIG_TEXT, 'shell = "bash"')).message, 'invalid value for "run.shell": expected one of system, rt, got "bash"');
  assert.equal(byLine.get(line(CONFIG_TEXT, 'shell = "bash"')).severity, 1, "rt refuses a wrong value");
  assert.equal(byLine.get(line(CONFIG_TEXT, "elide")).message, 'unknown key "run.elide"; rt ignores it');
  assert.equal(byLine.get(line(CONFIG_TEXT, "consoleDepth")).message, '"consoleDepth" sets --console-depth again (already set by "console-depth")');
  assert.equal(byLine.has(line(CONFIG_TEXT, "smol")), false);
  assert.equal(byLine.has(line(CONFIG_TEXT, "process.env.MODE")), false, "a keyed list written as a table");
});

test("a syntax error is underlined at its token; fixing it brings the schema diagnostics back", async () => {
  const text = '[run]\nshell = "rt\nsilent = true\n';
  const { diagnostics } = await server.open(SCRATCH, text);
  assertGolden("rtfig-syntax-error", diagnostics);
  assert.equal(diagnostics.length, 1);
  assert.deepEqual(diagnostics[0].range, { start: { line: 1, character: 11 }, end: { line: 1, character: 11 } }, "where the string stops: the end of its line");
  const fixed = await server.change(SCRATCH, [{ range: { start: { line: 1, character: 11 }, end: { line: 1, character: 11 } }, text: '"' }]);
  assert.deepEqual(fixed.diagnostics, []);
  const broken = await server.change(SCRATCH, [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: "= 3\n" }]);
  assert.deepEqual(
    broken.diagnostics.map((diagnostic) => [diagnostic.message, diagnostic.range]),
    [["Invalid TOML: Unexpected token", { start: { line: 2, character: 0 }, end: { line: 2, character: 1 } }]],
  );
  server.close(SCRATCH);
});

test("completion: the keys of the table the cursor is in, then the values of the key", async () => {
  const text = "\nsmol = \n[run]\n\nshell = \n[\n";
  await server.open(SCRATCH, text);
  const complete = (position) => server.request("textDocument/completion", SCRATCH, { position });
  const top = await complete({ line: 0, character: 0 });
  assertGolden("rtfig-completion-top-level", top);
  assert.ok(top.some((item) => item.label === "console-depth" && item.textEdit.newText === "console-depth = "));
  assert.ok(top.some((item) => item.label === "run" && item.textEdit.newText === "run."));
  const run = await complete({ line: 3, character: 0 });
  assertGolden("rtfig-completion-run-table", run);
  assert.deepEqual(
    run.map((item) => item.label),
    ["silent", "shell", "rt"],
  );
  assert.deepEqual(
    (await complete({ line: 4, character: 8 })).map((item) => [item.label, item.detail]),
    [
      ['"system"', "default"],
      ['"rt"', undefined],
    ],
  );
  assert.deepEqual(
    (await complete({ line: 1, character: 7 })).map((item) => item.label),
    ["true", "false"],
  );
  assert.deepEqual(
    (await complete({ line: 5, character: 1 })).map((item) => item.label),
    ["define", "loader", "run"],
    "table headers",
  );
  // A dotted key: `run.` at the top level offers the [run] table's keys.
  await server.change(SCRATCH, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "run.s" }]);
  assert.deepEqual(
    (await complete({ line: 0, character: 5 })).map((item) => [item.label, item.textEdit.newText, item.textEdit.range.start.character]),
    [
      ["silent", "run.silent = ", 0],
      ["shell", "run.shell = ", 0],
      ["rt", "run.rt = ", 0],
    ],
  );
  server.close(SCRATCH);
});

test("hover: a key's documentation, type and default; a table header's", async () => {
  const hover = (needle, delta = 1) => server.request("textDocument/hover", CONFIG, { position: positionOf(CONFIG_TEXT, needle, { delta }) });
  assert.deepEqual(await hover("console-depth"), {
    contents: {
      kind: "markdown",
      value: "**console-depth** (`--console-depth`)\n\nDepth of objects printed by console.log\n\nExpects a whole number >= 0\n\nDefault: `2`",
    },
    range: rangeAt(CONFIG_TEXT, "console-depth"),
  });
  assert.equal(
    (await hover('shell = "bash"')).contents.value,
    "**run.shell** (`--shell`)\n\nShell for package.json scripts: the system's (bash, sh, zsh) or rt's portable shell\n\nExpects one of system, rt\n\nDefault: `\"system\"`",
  );
  assert.equal((await hover("[run]")).contents.value, "**run**\n\nDefaults for the script runner (rt run)\n\nA table");
  assert.equal(await hover("colour"), null, "an unknown key has no documentation");
  assert.equal(await hover('"always"', 2), null, "a value is not a key");
});

test("a key defined twice is reported where it is, and hides none of the file's other problems", async () => {
  const text = 'console-depth = 2\ncolour = "always"\nconsole-depth = 3\nsmol = "yes"\n\n[run]\nshell = "rt"\n\n[run]\nsilent = true\n';
  const { diagnostics } = await server.open(SCRATCH, text);
  assertGolden("rtfig-duplicate-keys", diagnostics);
  assert.deepEqual(
    diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message, diagnostic.range]),
    [
      ["unknown-key", 'unknown key "colour"; rt ignores it', rangeAt(text, "colour")],
      ["duplicate-key", 'Invalid TOML: "console-depth" is already defined on line 1; rt refuses the file', rangeAt(text, "console-depth = 3", 13)],
      ["invalid-value", 'invalid value for "smol": expected true or false, got "yes"', rangeAt(text, '"yes"')],
      [
        "duplicate-key",
        'Invalid TOML: "run" is already defined on line 6; rt refuses the file',
        { start: { line: 8, character: 1 }, end: { line: 8, character: 4 } },
      ],
    ],
  );
  // Removing the second console-depth leaves the other problems as they were.
  const fixed = await server.change(SCRATCH, [{ range: { start: { line: 2, character: 0 }, end: { line: 3, character: 0 } }, text: "" }]);
  assert.deepEqual(
    fixed.diagnostics.map((diagnostic) => diagnostic.code),
    ["unknown-key", "invalid-value", "duplicate-key"],
  );
  server.close(SCRATCH);
});
