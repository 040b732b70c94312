// The package's public surface as the extension uses it: RtDebugSession (a DebugSession it can
// run inline) and the one table of launch/attach attributes it generates package.json from.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";

const require = createRequire(import.meta.url);

test("rt-debug-adapter exports RtDebugSession, a DebugSession taking { runtimeExecutable }", () => {
  const { RtDebugSession, DEBUG_TYPE } = require("rt-debug-adapter");
  const { DebugSession } = require("@vscode/debugadapter");
  const session = new RtDebugSession({ runtimeExecutable: "/opt/rt/bin/rt" });
  assert.equal(DEBUG_TYPE, "rt");
  // Bundled: the base class is the package's own copy; what an inline adapter needs is there.
  assert.equal(Object.getPrototypeOf(RtDebugSession.prototype).constructor.name.replace(/^_/, ""), DebugSession.name);
  assert.equal(typeof session.handleMessage, "function");
  assert.equal(typeof session.onDidSendMessage, "function");
  session.dispose();
});

test("rt-debug-adapter/configuration: the launch and attach attributes of the contract, each typed and described", () => {
  const { LAUNCH_ATTRIBUTES, ATTACH_ATTRIBUTES, configurationAttributes } = require("rt-debug-adapter/configuration");
  assert.deepEqual(Object.keys(LAUNCH_ATTRIBUTES), [
    "program",
    "script",
    "args",
    "cwd",
    "env",
    "envFile",
    "runtimeExecutable",
    "runtimeArgs",
    "stopOnEntry",
    "watchMode",
    "console",
    "noDebug",
    "autoAttachChildProcesses",
  ]);
  assert.deepEqual(Object.keys(ATTACH_ATTRIBUTES), ["url", "port", "host", "allowRemote", "restart"]);
  for (const [name, attribute] of Object.entries({ ...LAUNCH_ATTRIBUTES, ...ATTACH_ATTRIBUTES })) {
    assert.ok(attribute.type && attribute.description, `${name} has a type and a description`);
  }
  const contributed = configurationAttributes();
  assert.deepEqual(contributed.launch.properties, LAUNCH_ATTRIBUTES);
  assert.deepEqual(contributed.attach.properties, ATTACH_ATTRIBUTES);
  assert.deepEqual(LAUNCH_ATTRIBUTES.console.enum, ["internalConsole", "integratedTerminal"]);
});
