// A worker thread's own CDP session, carried inside its parent's session by the NodeWorker domain
// (NodeWorker.sendMessageToWorker out, NodeWorker.receivedMessageFromWorker in).
import { CdpSession } from "./connection.js";

export class WorkerSession extends CdpSession {
  constructor(
    private readonly parent: CdpSession,
    readonly sessionId: string,
  ) {
    super();
    parent.on("NodeWorker.receivedMessageFromWorker", (event) => {
      if (event.sessionId === sessionId) this.receive(event.message);
    });
    parent.on("NodeWorker.detachedFromWorker", (event) => {
      if (event.sessionId === sessionId) this.closed();
    });
    parent.onClose(() => this.closed());
  }

  protected transmit(text: string): void {
    this.parent.send("NodeWorker.sendMessageToWorker", { sessionId: this.sessionId, message: text }).catch(() => {});
  }

  close(): void {
    void this.parent.send("NodeWorker.detach", { sessionId: this.sessionId }).catch(() => {});
    this.closed();
  }
}
