const assert = require("node:assert/strict");
const vscode = require("vscode");
const { folder, eventually, path } = require("./support.cjs");

suite("language server", () => {
  test("opening package.json starts the language server: Run Script and Debug Script lenses above each script", async () => {
    const dir = folder("app").uri.fsPath;
    const uri = vscode.Uri.file(path.join(dir, "package.json"));
    await vscode.window.showTextDocument(uri);
    const lenses = await eventually(async () => {
      const found = await vscode.commands.executeCommand("vscode.executeCodeLensProvider", uri, 100);
      return found?.some((lens) => lens.command?.command === "rt.runScript") ? found : undefined;
    }, "code lenses from rt's language server", 30_000);
    const hello = lenses.filter((lens) => lens.command?.arguments?.[0]?.script === "hello");
    assert.deepEqual(
      hello.map((lens) => [lens.command.title, lens.command.command, lens.command.arguments]),
      [
        ["Run Script", "rt.runScript", [{ packageDir: dir, script: "hello" }]],
        ["Debug Script", "rt.debugScript", [{ packageDir: dir, script: "hello" }]],
      ],
    );
    // The lens's line is the script's key in package.json.
    const line = (await vscode.workspace.openTextDocument(uri)).getText().split("\n").findIndex((text) => text.includes('"hello":'));
    assert.equal(hello[0].range.start.line, line);
  });
});
