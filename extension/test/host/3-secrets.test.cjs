// Against the real keyring: the node test starts code-server on a private D-Bus session bus with
// gnome-keyring, and secret-tool (libsecret) checks what the panel's actions stored.
const assert = require("node:assert/strict");
const vscode = require("vscode");
const { secretTool } = require("./support.cjs");

const service = `rt-vscode-test-${process.pid}`;
const account = { kind: "account", service, name: "alice" };

suite("secrets panel actions", () => {
  test("add stores the value in the keyring under the service and account", async () => {
    const added = await vscode.commands.executeCommand("rt.secrets.add", undefined, { service, name: "alice", value: "s3cret välue\n" });
    assert.equal(added, true);
    assert.deepEqual(secretTool("lookup", "service", service, "username", "alice"), { code: 0, stdout: "s3cret välue\n" });
  });

  test("copy puts the value on the clipboard", async () => {
    await vscode.env.clipboard.writeText("something else");
    assert.equal(await vscode.commands.executeCommand("rt.secrets.copy", account), true);
    assert.equal(await vscode.env.clipboard.readText(), "s3cret välue\n");
  });

  test("update replaces the value", async () => {
    assert.equal(await vscode.commands.executeCommand("rt.secrets.update", account, { value: "n3w" }), true);
    assert.deepEqual(secretTool("lookup", "service", service, "username", "alice"), { code: 0, stdout: "n3w" });
  });

  test("delete without confirmation keeps the value; confirmed, it removes it", async () => {
    assert.equal(await vscode.commands.executeCommand("rt.secrets.delete", account, { confirmed: false }), false);
    assert.equal(secretTool("lookup", "service", service, "username", "alice").stdout, "n3w");
    assert.equal(await vscode.commands.executeCommand("rt.secrets.delete", account, { confirmed: true }), true);
    assert.equal(secretTool("lookup", "service", service, "username", "alice").code, 1);
  });

  test("track and untrack a service", async () => {
    assert.equal(await vscode.commands.executeCommand("rt.secrets.track", undefined, { service: "other-service", scope: "global" }), true);
    assert.equal(await vscode.commands.executeCommand("rt.secrets.untrack", undefined, { service: "other-service" }), true);
    assert.equal(await vscode.commands.executeCommand("rt.secrets.refresh"), undefined);
  });
});
