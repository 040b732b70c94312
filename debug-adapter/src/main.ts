#!/usr/bin/env node
// The standalone adapter: DAP over stdin/stdout (for editors other than VS Code's inline use).
import { RtDebugSession } from "./dap/session.js";

const session = new RtDebugSession();
process.on("SIGTERM", () => session.shutdown());
session.start(process.stdin, process.stdout);
