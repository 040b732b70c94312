// Starting the inspector's server thread: its own small bundle (dist/inspector-thread.cjs) too,
// so the launcher can start it before the CLI bundle loads when rt's flags ask for a debugger.
import type { Worker } from "node:worker_threads";
import * as path from "node:path";

/** The server thread, booting; it waits for its settings (startInspector) before it listens. */
export function startInspectorThread(): Worker {
  const { Worker } = require("node:worker_threads") as typeof import("node:worker_threads");
  const thread = new Worker(path.join(__dirname, "inspector-worker.cjs"), { stdout: false, stderr: false });
  // The server never keeps the program alive; unused (no debugger after all), it ends with it.
  thread.unref();
  return thread;
}
