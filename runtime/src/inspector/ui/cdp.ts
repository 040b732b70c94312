// A Chrome DevTools Protocol client over a WebSocket that reconnects when the program
// restarts (rt --watch): the page stays open and picks up the new process.

type Listener = (params: any) => void;

export class CdpConnection {
  private socket: WebSocket | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: any) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<string, Listener[]>();

  constructor(
    private readonly url: string,
    private readonly onStatus: (connected: boolean) => void,
  ) {}

  connect(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => this.onStatus(true);
    socket.onmessage = (event) => this.receive(JSON.parse(String(event.data)));
    socket.onclose = () => {
      for (const { reject } of this.pending.values()) reject(new Error("disconnected"));
      this.pending.clear();
      this.onStatus(false);
      setTimeout(() => this.connect(), 1000);
    };
  }

  /** Closes this connection; it reconnects as after any other close. */
  disconnect(): void {
    this.socket?.close();
  }

  send<T = any>(method: string, params?: object): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.socket?.readyState !== WebSocket.OPEN) return reject(new Error("not connected"));
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  on(event: string, listener: Listener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }

  private receive(message: { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } }): void {
    if (message.id !== undefined) {
      const call = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) call?.reject(new Error(message.error.message));
      else call?.resolve(message.result);
      return;
    }
    for (const listener of this.listeners.get(message.method ?? "") ?? []) listener(message.params);
  }
}
