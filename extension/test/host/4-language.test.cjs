const assert = require("node:assert/strict");
const vscode = require("vscode");
const { folder, eventually, path } = require("./support.cjs");

suite("language server", () => {
  test("opening package.json starts the language server: Run Script and Debug Script lenses above each script", async () => {
    const dir = folder("app").uri.fsPath;
    const uri = vscode.Uri.file(path.join(dir, "package.json"));
    await vscode.window.showTextDocument(uri);
    const lenses = await eventually(
      async () => {
        const found = await vscode.commands.executeCommand("vscode.executeCodeLensProvider", uri, 100);
        return found?.some((lens) => lens.command?.command === "rt.runScript") ? found : undefined;
      },
      "code lenses from rt's language server",
      30_000,
    );
    const hello = lenses.filter((lens) => lens.command?.arguments?.[0]?.script === "hello");
    assert.deepEqual(
      hello.map((lens) => [lens.command.title, lens.command.command, lens.command.arguments]),
      [
        ["Run Script", "rt.runScript", [{ packageDir: dir, script: "hello" }]],
        ["Debug Script", "rt.debugScript", [{ packageDir: dir, script: "hello" }]],
      ],
    );
    // The lens's line is the script's key in package.json.
    const line = (await vscode.workspace.openTextDocument(uri))
      .getText()
      .split("\n")
      .findIndex((text) => text.includes('"hello":'));
    assert.equal(hello[0].range.start.line, line);
  });

  test("rtfig.toml gets the language server's diagnostics (no TOML extension needed)", async () => {
    const uri = vscode.Uri.file(path.join(folder("empty").uri.fsPath, "rtfig.toml"));
    await vscode.window.showTextDocument(uri);
    const [diagnostic] = await eventually(
      () => {
        const found = vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === "rt");
        return found.length ? found : undefined;
      },
      "a diagnostic for rtfig.toml",
      30_000,
    );
    assert.equal(diagnostic.message, 'invalid value for "console-depth": expected a whole number >= 0, got -1');
    assert.equal(diagnostic.range.start.line, 1);
  });
});
