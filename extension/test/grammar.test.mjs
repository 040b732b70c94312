// rtfig.toml's syntax highlighting without a TOML extension: the TextMate grammar the extension
// contributes, loaded as VS Code loads grammars (vscode-textmate on the Oniguruma engine), tokenizes
// an rtfig.toml with the scopes themes colour, and the manifest wires it to rtfig.toml.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import oniguruma from "vscode-oniguruma";
import textmate from "vscode-textmate";

const EXTENSION = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(EXTENSION, "package.json"), "utf8"));
const [contribution] = manifest.contributes.grammars;

const wasm = readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve("vscode-oniguruma")), "onig.wasm"));
await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
const registry = new textmate.Registry({
  onigLib: Promise.resolve({ createOnigScanner: (sources) => new oniguruma.OnigScanner(sources), createOnigString: (text) => new oniguruma.OnigString(text) }),
  loadGrammar: async (scopeName) =>
    scopeName === contribution.scopeName ? textmate.parseRawGrammar(readFileSync(path.join(EXTENSION, contribution.path), "utf8"), contribution.path) : null,
});
const grammar = await registry.loadGrammar(contribution.scopeName);

/**
 * Each token of `text` as [its text, its innermost scope], line by line, blanks left out; a
 * string's quotes (punctuation.definition.string) are joined to the string.
 */
function tokenize(text) {
  let state = textmate.INITIAL;
  return text.split("\n").map((line) => {
    const { tokens, ruleStack } = grammar.tokenizeLine(line, state);
    state = ruleStack;
    const parts = [];
    for (const token of tokens) {
      const part = line.slice(token.startIndex, token.endIndex);
      const scope = token.scopes.findLast((name) => !name.startsWith("punctuation.definition.string."));
      if (parts.at(-1)?.[1] === scope && scope.startsWith("string.")) parts.at(-1)[0] += part;
      else parts.push([part, scope]);
    }
    return parts.filter(([part]) => part.trim() !== "");
  });
}

test("the manifest gives rtfig.toml its language and the grammar (no TOML extension needed)", () => {
  assert.deepEqual(manifest.contributes.languages.find((language) => language.id === contribution.language).filenames, ["rtfig.toml"]);
  assert.equal(contribution.scopeName, "source.rtfig");
  assert.ok(grammar, "the grammar loads");
});

test("an rtfig.toml: tables, keys, strings, numbers, booleans, comments, arrays, inline tables", () => {
  const lines = tokenize(
    [
      "# rt's configuration",
      "console-depth = 4 # deeper",
      "preload = [\"./setup.ts\", './b.ts']",
      "smol = true",
      "",
      "[run]",
      'shell = "rt\\n"',
      "",
      "[[cases]]",
      "ratio = -1.5e3",
      "when = 1979-05-27T07:32:00Z",
      'define = { "process.env.A" = """x""", B = 0x1F }',
    ].join("\n"),
  );
  assert.deepEqual(lines[0], [
    ["#", "punctuation.definition.comment.toml"],
    [" rt's configuration", "comment.line.number-sign.toml"],
  ]);
  assert.deepEqual(lines[1], [
    ["console-depth", "support.type.property-name.toml"],
    ["=", "keyword.operator.assignment.toml"],
    ["4", "constant.numeric.integer.toml"],
    ["#", "punctuation.definition.comment.toml"],
    [" deeper", "comment.line.number-sign.toml"],
  ]);
  assert.deepEqual(lines[2], [
    ["preload", "support.type.property-name.toml"],
    ["=", "keyword.operator.assignment.toml"],
    ["[", "punctuation.definition.array.begin.toml"],
    ['"./setup.ts"', "string.quoted.double.toml"],
    [",", "punctuation.separator.array.toml"],
    ["'./b.ts'", "string.quoted.single.toml"],
    ["]", "punctuation.definition.array.end.toml"],
  ]);
  assert.deepEqual(lines[3].slice(2), [["true", "constant.language.boolean.toml"]]);
  assert.deepEqual(lines[5], [
    ["[", "punctuation.definition.table.begin.toml"],
    ["run", "entity.name.section.table.toml"],
    ["]", "punctuation.definition.table.end.toml"],
  ]);
  assert.deepEqual(lines[6].slice(2), [
    ['"rt', "string.quoted.double.toml"],
    ["\\n", "constant.character.escape.toml"],
    ['"', "string.quoted.double.toml"],
  ]);
  assert.deepEqual(lines[8], [
    ["[[", "punctuation.definition.table.array.begin.toml"],
    ["cases", "entity.name.section.table.toml"],
    ["]]", "punctuation.definition.table.array.end.toml"],
  ]);
  assert.deepEqual(lines[9].slice(2), [["-1.5e3", "constant.numeric.float.toml"]]);
  assert.deepEqual(lines[10].slice(2), [["1979-05-27T07:32:00Z", "constant.other.datetime.toml"]]);
  assert.deepEqual(lines[11].slice(2), [
    ["{", "punctuation.definition.table.inline.begin.toml"],
    ['"process.env.A"', "support.type.property-name.toml"],
    ["=", "keyword.operator.assignment.toml"],
    ['"""x"""', "string.quoted.triple.double.toml"],
    [",", "punctuation.separator.table.inline.toml"],
    ["B", "support.type.property-name.toml"],
    ["=", "keyword.operator.assignment.toml"],
    ["0x1F", "constant.numeric.integer.hexadecimal.toml"],
    ["}", "punctuation.definition.table.inline.end.toml"],
  ]);
});

test("a multi-line array and a multi-line string keep their scope across lines; the next key is a key again", () => {
  const lines = tokenize(["exclude = [", '  "a", # first', "  'b',", "]", 'note = """', "two [lines]", '"""', "silent = false"].join("\n"));
  assert.deepEqual(lines[1], [
    ['"a"', "string.quoted.double.toml"],
    [",", "punctuation.separator.array.toml"],
    ["#", "punctuation.definition.comment.toml"],
    [" first", "comment.line.number-sign.toml"],
  ]);
  assert.deepEqual(lines[3], [["]", "punctuation.definition.array.end.toml"]]);
  assert.deepEqual(lines[5], [["two [lines]", "string.quoted.triple.double.toml"]]);
  assert.deepEqual(lines[7], [
    ["silent", "support.type.property-name.toml"],
    ["=", "keyword.operator.assignment.toml"],
    ["false", "constant.language.boolean.toml"],
  ]);
});

test("the language server tests' rtfig.toml: every entry starts with its key, nothing is marked invalid", () => {
  const text = readFileSync(path.join(EXTENSION, "..", "test", "fixtures", "lsp", "config", "rtfig.toml"), "utf8");
  const lines = tokenize(text);
  text.split("\n").forEach((line, index) => {
    assert.ok(!lines[index].some(([, scope]) => scope.startsWith("invalid")), line);
    if (/^\s*[\w"']/.test(line)) assert.equal(lines[index][0][1], "support.type.property-name.toml", line);
  });
});
