// One server for a whole test file: started before its tests, shut down after them (it must
// exit 0 having printed nothing on stderr), and killed if a failure left it running.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { killServers, startServer } from "./lsp.mjs";

/** The file's server (usable inside tests: it forwards to the one started before them). */
export function sharedServer() {
  let server;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    assert.equal(await server.shutdown(), 0);
    assert.equal(server.stderr, "");
  });
  after(killServers);
  return new Proxy({}, { get: (_, key) => server[key] });
}
