// package.json through the language server, as an editor drives it over stdio: diagnostics,
// lenses, completion, hover and links on the fixture packages under test/fixtures/lsp/.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { before, describe, test } from "node:test";
import { marked } from "marked";
import { assertGolden, FIXTURES, positionOf, REPO, uriOf } from "./lsp.mjs";
import { sharedServer } from "./suite.mjs";

const server = sharedServer();

const APP = path.join(FIXTURES, "app", "package.json");
const APP_TEXT = readFileSync(APP, "utf8");
const MONOREPO = path.join(FIXTURES, "monorepo");

const hover = async (file, text, needle, options) => {
  const result = await server.request("textDocument/hover", file, { position: positionOf(text, needle, options) });
  return result && { ...result, contents: result.contents.value.replaceAll(REPO, "<repo>/") };
};
const complete = (file, position) => server.request("textDocument/completion", file, { position });
const rangeAt = (text, needle, length = needle.length, options) => {
  const start = positionOf(text, needle, options);
  return { start, end: { line: start.line, character: start.character + length } };
};

describe("package.json", () => {
  let opened;
  before(() => {
    opened = server.open(APP);
  });

  test("diagnostics: a missing script, unknown and misplaced flags, values rt refuses, a hook without its script", async () => {
    const { diagnostics } = await opened;
    assertGolden("package-json-diagnostics", diagnostics);
    const missing = diagnostics.find((diagnostic) => diagnostic.code === "not-found");
    assert.deepEqual(missing.range, rangeAt(APP_TEXT, "missing-script"));
    assert.equal(missing.message, 'Script not found "missing-script"');
    assert.deepEqual(diagnostics.find((diagnostic) => diagnostic.code === "unknown-flag").range, rangeAt(APP_TEXT, "--no-such-flag"));
    assert.deepEqual(diagnostics.find((diagnostic) => diagnostic.code === "orphan-hook").range, rangeAt(APP_TEXT, '"predeploy"'));
    // Which flags a command takes comes from the flag table's COMMANDS, as the CLI checks it.
    assert.deepEqual(
      diagnostics.filter((diagnostic) => diagnostic.code === "misplaced-flag").map((diagnostic) => [diagnostic.message, diagnostic.range]),
      [
        ['--outdir is a flag of "rt build": rt refuses it here', rangeAt(APP_TEXT, "--outdir")],
        ["--smol does not apply to rt build: rt refuses it here", rangeAt(APP_TEXT, "--smol")],
      ],
    );
    assert.deepEqual(
      diagnostics.filter((diagnostic) => diagnostic.code === "invalid-value").map((diagnostic) => [diagnostic.message, diagnostic.range]),
      [
        ['invalid value "bash" for --shell; valid values: system, rt', rangeAt(APP_TEXT, "--shell=bash")],
        ['invalid value "deep" for --console-depth: expected a whole number >= 0', rangeAt(APP_TEXT, "--console-depth=deep")],
        ["--preload needs a value", rangeAt(APP_TEXT, "--preload")],
      ],
    );
    assert.deepEqual(
      diagnostics.map((diagnostic) => diagnostic.code),
      ["not-found", "unknown-flag", "orphan-hook", "misplaced-flag", "misplaced-flag", "invalid-value", "invalid-value", "invalid-value"],
      "nothing for the scripts rt can run: --filter, -e, rt build, quoted names, env assignments, binaries",
    );
  });

  test("a Run Script and a Debug Script lens on each script, with the package's directory", async () => {
    const lenses = await server.request("textDocument/codeLens", APP);
    assertGolden("package-json-lenses", lenses);
    const scripts = Object.keys(JSON.parse(APP_TEXT).scripts);
    assert.equal(lenses.length, scripts.length * 2);
    assert.deepEqual(lenses[2], {
      range: rangeAt(APP_TEXT, '"build"'),
      command: { title: "Run Script", command: "rt.runScript", arguments: [{ packageDir: path.dirname(APP), script: "build" }] },
    });
    assert.deepEqual(lenses[3].command, { title: "Debug Script", command: "rt.debugScript", arguments: [{ packageDir: path.dirname(APP), script: "build" }] });
  });

  test("hover on a script: its pre/post hooks and what each command resolves to", async () => {
    assert.deepEqual(await hover(APP, APP_TEXT, '"build"', { delta: 3 }), {
      contents: [
        "**rt run build** runs in `<repo>/test/fixtures/lsp/app`:",
        "",
        "1. `prebuild`: `rt run clean`",
        "2. `build`: `rt --shell=rt run compile && lsp-tool --out dist/out.js`",
        "3. `postbuild`: `echo built`",
        "",
        "- `rt run compile` runs the script `compile`: `rt src/main.ts`",
        "- `lsp-tool` runs the project binary `node_modules/.bin/lsp-tool`",
      ].join("\n"),
      range: rangeAt(APP_TEXT, '"build"'),
    });
  });

  test("hover inside a script: the rt target, a flag, a program", async () => {
    assert.deepEqual(await hover(APP, APP_TEXT, "compile &&", { delta: 1 }), {
      contents: "`rt run compile` runs the script `compile`: `rt src/main.ts`",
      range: rangeAt(APP_TEXT, "compile &&", 7),
    });
    assert.equal((await hover(APP, APP_TEXT, "src/main.ts", { occurrence: 1 })).contents, "`rt src/main.ts` runs the file `src/main.ts`");
    assert.equal(
      (await hover(APP, APP_TEXT, "rt run lsp-tool", { delta: 8 })).contents,
      "`rt run lsp-tool` runs the project binary `node_modules/.bin/lsp-tool`",
    );
    assert.equal((await hover(APP, APP_TEXT, "missing-script")).contents, "`rt run missing-script`: no script, file, binary or command of that name");
    assert.deepEqual(await hover(APP, APP_TEXT, "--watch", { delta: 2 }), {
      contents: "`--watch`\n\nRestart the program when a file it loaded changes",
      range: rangeAt(APP_TEXT, "--watch"),
    });
    assert.equal(
      (await hover(APP, APP_TEXT, "--shell=rt")).contents,
      "`--shell=<system|rt>`\n\nShell for package.json scripts: the system's (bash, sh, zsh) or rt's portable shell\n\nDefault: `system`",
    );
    assert.equal((await hover(APP, APP_TEXT, "sh ./scripts")).contents.split(" runs the system command ")[0], "`sh`");
    assert.equal(await hover(APP, APP_TEXT, '"version"'), null, "outside the scripts: nothing");
  });

  test("document links to the files a script names (existing files only)", async () => {
    const links = await server.request("textDocument/documentLink", APP);
    assertGolden("package-json-links", links);
    assert.deepEqual(
      links.map((link) => [
        APP_TEXT.split("\n")[link.range.start.line].slice(link.range.start.character, link.range.end.character),
        link.target.replace(uriOf(path.dirname(APP)), ""),
      ]),
      [
        ["src/main.ts", "/src/main.ts"],
        ["./src/main.ts", "/src/main.ts"],
        ["./scripts/setup.sh", "/scripts/setup.sh"],
        ["src/config.json", "/src/config.json"],
        ["src/main.ts", "/src/main.ts"],
        ["src/main.ts", "/src/main.ts"],
        ["src/main.ts", "/src/main.ts"],
      ],
    );
  });

  test("completion: script names after `rt run `, flags and `run` after `rt `, values after `--flag=`", async () => {
    const typing = positionOf(APP_TEXT, '"rt run "', { delta: 8 });
    const scripts = await complete(APP, typing);
    assertGolden("completion-script-names", scripts);
    assert.ok(!scripts.some((item) => item.label === "typing"), "not the script being written");

    // Incremental edits: `rt run ` becomes `rt ` (the editor sends only the changed range).
    const runStart = { line: typing.line, character: typing.character - 4 };
    await server.change(APP, [{ range: { start: runStart, end: typing }, text: "" }]);
    const flags = await complete(APP, runStart);
    assertGolden("completion-flags", flags);
    assert.deepEqual(flags[0].label, "run");
    assert.ok(flags.some((item) => item.label === "--shell" && item.documentation.startsWith("Shell for package.json scripts")));
    assert.ok(!flags.some((item) => item.label === "--outdir"), "a flag of rt build is not offered outside rt build");

    await server.change(APP, [{ range: { start: runStart, end: runStart }, text: "--sh" }]);
    const partial = await complete(APP, { line: runStart.line, character: runStart.character + 4 });
    assert.deepEqual(partial.find((item) => item.label === "--shell").textEdit, {
      range: { start: runStart, end: { line: runStart.line, character: runStart.character + 4 } },
      newText: "--shell",
    });
    assert.ok(!partial.some((item) => item.label === "run"), "a word starting with - is a flag");

    await server.change(APP, [
      {
        range: { start: { line: runStart.line, character: runStart.character + 4 }, end: { line: runStart.line, character: runStart.character + 4 } },
        text: "ell=",
      },
    ]);
    const values = await complete(APP, { line: runStart.line, character: runStart.character + 8 });
    assert.deepEqual(
      values.map((item) => [item.label, item.textEdit.range.start.character]),
      [
        ["system", runStart.character + 8],
        ["rt", runStart.character + 8],
      ],
    );
    assert.deepEqual(await complete(APP, positionOf(APP_TEXT, '"version"', { delta: 3 })), [], "outside a script: nothing");
  });

  test("malformed JSON while typing: the syntax error where it is, the rest still answered", async () => {
    const text = readFileSync(APP, "utf8");
    const line = positionOf(text, '"echo built"').line;
    const quote = positionOf(text, 'built"', { delta: 5 });
    // Delete the closing quote of "echo built": the string now runs to the end of the line.
    const { diagnostics } = await server.change(APP, [{ range: { start: quote, end: { line: quote.line, character: quote.character + 1 } }, text: "" }]);
    const syntax = diagnostics.filter((diagnostic) => diagnostic.message.startsWith("Invalid JSON"));
    assert.equal(syntax.length, 1, "the first error only: the next ones are its echoes");
    assert.deepEqual(syntax[0].range.start.line, line);
    assertGolden("package-json-malformed-diagnostics", syntax);
    const lenses = await server.request("textDocument/codeLens", APP);
    assert.ok(lenses.length > 0, "lenses for what still parses");
    assert.ok(await hover(APP, text, '"compile"', { delta: 2 }));
    const restored = await server.change(APP, [{ range: { start: quote, end: quote }, text: '"' }]);
    assert.ok(!restored.diagnostics.some((diagnostic) => diagnostic.message.startsWith("Invalid JSON")));
  });
});

describe("workspaces", () => {
  const a = path.join(MONOREPO, "packages", "a", "package.json");
  const b = path.join(MONOREPO, "packages", "b", "package.json");
  const root = path.join(MONOREPO, "package.json");
  const ROOT_TEXT = readFileSync(root, "utf8");

  test("each package of a monorepo gets its own lenses and is checked against its own scripts", async () => {
    const [aDiagnostics, bDiagnostics] = await Promise.all([server.open(a), server.open(b)]);
    assert.deepEqual(aDiagnostics.diagnostics, []);
    assert.deepEqual(
      bDiagnostics.diagnostics.map((diagnostic) => diagnostic.message),
      ['Script not found "a-build" (did you mean "build"?)'],
    );
    for (const [file, scripts] of [
      [a, ["build", "test"]],
      [b, ["build"]],
    ]) {
      const lenses = await server.request("textDocument/codeLens", file);
      assert.deepEqual(
        lenses.map((lens) => [lens.command.command, lens.command.arguments[0]]),
        scripts.flatMap((script) => [
          ["rt.runScript", { packageDir: path.dirname(file), script }],
          ["rt.debugScript", { packageDir: path.dirname(file), script }],
        ]),
      );
    }
  });

  test("--filter and --workspaces: checked against the member packages, as rt selects them", async () => {
    const { diagnostics } = await server.open(root);
    assertGolden("workspace-diagnostics", diagnostics);
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.message, diagnostic.range]),
      [
        [
          `Missing "test" script in package b (${path.join(MONOREPO, "packages", "b")}); add it, or pass --if-present to skip packages without it`,
          rangeAt(ROOT_TEXT, "test", 4, { occurrence: 2 }),
        ],
        ['Script "lint" not found in 1 package matching "b"', rangeAt(ROOT_TEXT, "lint", 4, { occurrence: 2 })],
        [`No workspace packages matched the filter "c*" (packages: a, b)`, rangeAt(ROOT_TEXT, "build", 5, { occurrence: 3 })],
      ],
    );
    const hover = await server.request("textDocument/hover", root, { position: positionOf(ROOT_TEXT, "build", { occurrence: 2, delta: 1 }) });
    assert.equal(hover.contents.value, "`build` runs in 2 workspace packages:\n  - `a`: `rt index.ts`\n  - `b`: `rt run a-build`");
    const lenses = await server.request("textDocument/codeLens", root);
    assert.equal(lenses.length, 10);
    assert.deepEqual(lenses[0].command.arguments, [{ packageDir: MONOREPO, script: "build" }]);
  });
});

test("each command's own flags, as rt takes them: rt build the bundler's and the transpiler's, rt secrets its own", async () => {
  const file = path.join(FIXTURES, "app", "commands", "package.json");
  const scripts = { bundle: "rt build --smol --define A:1 --outdir dist src/main.ts", list: "rt secrets list --define X:1 app", typing: "rt build " };
  const text = JSON.stringify({ name: "commands", scripts }, null, 2);
  const { diagnostics } = await server.open(file, text);
  assert.deepEqual(
    diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message, diagnostic.range]),
    [
      ["misplaced-flag", "--smol does not apply to rt build: rt refuses it here", rangeAt(text, "--smol")],
      ["misplaced-flag", "--define does not apply to rt secrets: rt refuses it here", rangeAt(text, "--define", 8, { occurrence: 2 })],
    ],
  );
  const offered = (await complete(file, positionOf(text, '"rt build "', { delta: 10 }))).map((item) => item.label);
  for (const flag of ["--outdir", "--define", "--watch", "--config"]) assert.ok(offered.includes(flag), `${flag} is offered after rt build`);
  for (const flag of ["--smol", "--shell", "--allow-empty"]) assert.ok(!offered.includes(flag), `${flag} is not offered after rt build`);
});

describe("hover on rt itself", () => {
  test("the `rt` of a script is rt: what the command runs and what its flags do", async () => {
    const hovers = await Promise.all(["rt --watch", "rt build src/main.ts", "rt --no-such-flag"].map((needle) => hover(APP, APP_TEXT, needle, { delta: 1 })));
    assertGolden("package-json-rt-hovers", hovers);
    assert.deepEqual(hovers[0], {
      contents: [
        "**rt**: the rt runtime",
        "",
        "`rt ./src/main.ts` runs the file `src/main.ts`",
        "",
        "- `--watch`: Restart the program when a file it loaded changes",
      ].join("\n"),
      range: rangeAt(APP_TEXT, "rt --watch", 2),
    });
    assert.equal(hovers[1].contents, "**rt**: the rt runtime\n\n`rt build`: Bundle for node, browsers or rt", "a built-in command");
    assert.equal(
      hovers[2].contents,
      "**rt**: the rt runtime\n\n`rt run compile` runs the script `compile`: `rt src/main.ts`\n\n- `--no-such-flag`: not an rt flag",
    );
  });

  test("hover on a script lists its rt commands as rt, not as a program named rt", async () => {
    const { contents } = await hover(APP, APP_TEXT, '"many"', { delta: 2 });
    assert.ok(!contents.includes("no script, file, binary or command"), contents);
    assert.match(contents, /^- `rt build`: Bundle for node, browsers or rt$/m);
  });
});

describe("text from the file in hovers", () => {
  // A cloned repository's package.json: names and bodies that would be links, images or HTML in
  // markdown, backticks that would close a code span, and a blank line that would end one.
  const file = path.join(FIXTURES, "app", "hostile", "package.json");
  const scripts = {
    "[x](https://evil)": "rt run '[click](https://evil) ![img](https://evil/i.png) <img src=x> ``a``'",
    "pre[x](https://evil)": "rt run 'a\n\n[line](https://evil) `b`'",
  };
  const text = JSON.stringify({ name: "<b>hostile</b>", scripts }, null, 2);

  test("shows as written: no link, image or HTML, whatever the script holds", async () => {
    await server.open(file, text);
    const hovers = [await hover(file, text, '"[x]', { delta: 2 }), await hover(file, text, "'[click]", { delta: 2 })];
    assertGolden("package-json-hostile-hovers", hovers);
    for (const { contents } of hovers) {
      // Rendered as VS Code renders hovers (with marked): what the file holds is text, in <code>.
      const html = marked.parse(contents);
      assert.doesNotMatch(html, /<a |<img |<b>/, html);
      assert.ok(html.includes("<code>rt run [click](https://evil) ![img](https://evil/i.png) &lt;img src=x&gt; ``a``</code>"), html);
    }
    assert.ok(marked.parse(hovers[0].contents).includes("a  [line](https://evil) `b`&#39;</code>"), "the blank line does not end the code span");
    assert.ok(marked.parse(hovers[0].contents).includes("<strong>rt run [x](https://evil)</strong>"), "the script's name in prose, escaped");
  });
});
