#!/usr/bin/env node
// The standalone adapter: DAP over stdin/stdout (for editors other than VS Code's inline use).
// Messages pass through DapFraming first: a malformed one is reported and skipped, never the end
// of the session.
import { DapFraming } from "./dap/framing.js";
import { RtDebugSession } from "./dap/session.js";

const session = new RtDebugSession();
process.on("SIGTERM", () => session.shutdown());
session.start(process.stdin.pipe(new DapFraming((problem) => session.protocolError(problem))), process.stdout);
