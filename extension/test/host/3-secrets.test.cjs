// Against the real keyring: the node test starts code-server on a private D-Bus session bus with
// gnome-keyring, and secret-tool (libsecret) checks what the panel's actions stored.
const assert = require("node:assert/strict");
const vscode = require("vscode");
const { eventually, secretTool } = require("./support.cjs");

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

  /** Runs `command` so that a box of VS Code's opens (no answer for it), and presses Enter in it. */
  async function enterInBox(command, node, answers) {
    let settled = false;
    const result = vscode.commands.executeCommand(command, node, answers).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the box opens
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const accepted = settled;
    // Escape: a box still open closes and the command ends without storing.
    await eventually(async () => (await vscode.commands.executeCommand("workbench.action.closeQuickOpen"), settled), "the input box to close", 10_000);
    return { accepted, result: await result };
  }

  test("Enter on an empty value box stores nothing: the box stays open (Update and Add)", async () => {
    // The control: the same wait and Enter do reach a box when it takes them (Track's pick takes its first item).
    assert.deepEqual(await enterInBox("rt.secrets.track", undefined, { service: "enter-control" }), { accepted: true, result: true });
    assert.equal(await vscode.commands.executeCommand("rt.secrets.untrack", undefined, { service: "enter-control" }), true);
    assert.deepEqual(await enterInBox("rt.secrets.update", account), { accepted: false, result: false });
    assert.deepEqual(await enterInBox("rt.secrets.add", undefined, { service, name: "alice" }), { accepted: false, result: false });
    assert.deepEqual(secretTool("lookup", "service", service, "username", "alice"), { code: 0, stdout: "n3w" });
  });

  test('a value "" from another extension is stored only with allowEmpty: true', async () => {
    assert.equal(await vscode.commands.executeCommand("rt.secrets.update", account, { value: "" }), undefined);
    assert.equal(await vscode.commands.executeCommand("rt.secrets.add", undefined, { service, name: "alice", value: "" }), undefined);
    assert.equal(secretTool("lookup", "service", service, "username", "alice").stdout, "n3w");
    assert.equal(await vscode.commands.executeCommand("rt.secrets.update", account, { value: "", allowEmpty: true }), true);
    assert.deepEqual(secretTool("lookup", "service", service, "username", "alice"), { code: 0, stdout: "" });
    assert.equal(await vscode.commands.executeCommand("rt.secrets.update", account, { value: "n3w" }), true);
  });

  test("a name that is not UTF-8 text (a lone surrogate) is refused, as rt.secrets refuses it: nothing stored", async () => {
    assert.equal(await vscode.commands.executeCommand("rt.secrets.add", undefined, { service, name: "bob\ud800", value: "x" }), undefined);
    assert.equal(secretTool("search", "--all", "service", service).stdout.match(/^\[\//gm)?.length, 1);
  });

  test("delete without confirmation keeps the value; confirmed, it removes it, and its copied value leaves the clipboard", async () => {
    assert.equal(await vscode.commands.executeCommand("rt.secrets.copy", account), true);
    assert.equal(await vscode.commands.executeCommand("rt.secrets.delete", account, { confirmed: false }), false);
    assert.equal(secretTool("lookup", "service", service, "username", "alice").stdout, "n3w");
    assert.equal(await vscode.env.clipboard.readText(), "n3w");
    assert.equal(await vscode.commands.executeCommand("rt.secrets.delete", account, { confirmed: true }), true);
    assert.equal(secretTool("lookup", "service", service, "username", "alice").code, 1);
    assert.equal(await vscode.env.clipboard.readText(), "", "the deleted secret's value is not left on the clipboard");
  });

  test("track and untrack a service", async () => {
    assert.equal(await vscode.commands.executeCommand("rt.secrets.track", undefined, { service: "other-service", scope: "global" }), true);
    assert.equal(await vscode.commands.executeCommand("rt.secrets.untrack", undefined, { service: "other-service" }), true);
    assert.equal(await vscode.commands.executeCommand("rt.secrets.refresh"), undefined);
  });
});
