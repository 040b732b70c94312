// Worker threads of a connected program, each a CDP session of its own inside the program's
// (Node's NodeWorker domain). Each new worker waits at its start until the session above has set
// its breakpoints (waitForDebuggerOnStart) and lets it run. rt's own threads (the inspector's
// server) are left alone.
import type { CdpSession, WorkerInfo } from "../cdp/connection.js";
import { WorkerSession } from "../cdp/worker.js";
import { isInternal } from "../adapter/internal.js";

export function followWorkers(cdp: CdpSession, started: (session: WorkerSession, info: WorkerInfo) => void): void {
  cdp.on("NodeWorker.attachedToWorker", ({ sessionId, workerInfo }) => {
    const session = new WorkerSession(cdp, sessionId);
    if (isInternal(workerInfo.url)) session.close();
    else started(session, workerInfo);
  });
  // Not awaited: commands run in order, so it is in force before the program is let go.
  void cdp.send("NodeWorker.enable", { waitForDebuggerOnStart: true }).catch(() => {});
}
