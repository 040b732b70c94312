// Worker threads of a connected program, each a CDP session of its own inside the program's
// (Node's NodeWorker domain). Each new worker waits at its start until the session above has set
// its breakpoints (waitForDebuggerOnStart) and lets it run. rt's own threads (the secrets store,
// the installer, the inspector's server) never show here: rt's inspector lets them run and keeps
// them from every client (runtime/src/inspector/worker.ts, InternalWorkers).
import type { CdpSession, WorkerInfo } from "../cdp/connection.js";
import { WorkerSession } from "../cdp/worker.js";

export function followWorkers(cdp: CdpSession, started: (session: WorkerSession, info: WorkerInfo) => void): void {
  cdp.on("NodeWorker.attachedToWorker", ({ sessionId, workerInfo }) => started(new WorkerSession(cdp, sessionId), workerInfo));
  // Not awaited: commands run in order, so it is in force before the program is let go.
  void cdp.send("NodeWorker.enable", { waitForDebuggerOnStart: true }).catch(() => {});
}
