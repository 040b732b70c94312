const assert = require("node:assert/strict");
const vscode = require("vscode");
const { EXTENSION_ID, metric } = require("./support.cjs");

suite("activation", () => {
  test("the installed extension activates and reports its activation time", async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    const api = await extension.activate();
    assert.equal(extension.isActive, true);
    assert.equal(typeof api.activationMs, "number");
    metric("activationMs", Math.round(api.activationMs * 10) / 10);
  });

  test("every command of package.json is registered", async () => {
    const commands = new Set(await vscode.commands.getCommands(true));
    const contributed = vscode.extensions.getExtension(EXTENSION_ID).packageJSON.contributes.commands.map((command) => command.command);
    assert.ok(contributed.length >= 14);
    assert.deepEqual(
      contributed.filter((id) => !commands.has(id)),
      [],
    );
  });
});
