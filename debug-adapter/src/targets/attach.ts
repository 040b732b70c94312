// Attaching to an rt already running with --inspect: by WebSocket URL, or by port through the
// inspector's /json/list. Only this machine unless allowRemote (a debugger can run any code).
// With `restart`, a connection that closes (the program restarted) is made again.
import { get } from "node:http";
import { CdpConnection } from "../cdp/connection.js";
import type { AttachArguments, RestartPolicy } from "../configuration.js";
import { terminateProcess } from "./launch.js";
import { hangUp, type DebugTarget, type TargetEvents } from "./target.js";

export class AttachError extends Error {}

const DISCOVERY_TIMEOUT_MS = 5000;

export class AttachedProgram implements DebugTarget {
  private url: string | undefined;
  private connection: CdpConnection | undefined;
  private stopping = false;
  readonly ownsProcess: boolean;

  constructor(
    private readonly args: AttachArguments,
    private readonly events: TargetEvents,
  ) {
    this.ownsProcess = args.__childProcessId !== undefined;
  }

  async start(): Promise<void> {
    this.url = await attachUrl(this.args);
    await this.connect(false);
  }

  /**
   * A child process of a launched program ends; any other program is not ours to stop: only the
   * connection ends. A child whose connection closed has ended (rt's inspector serves from a
   * thread of the process's own, to its end) or is ending (it said it waits for the disconnect):
   * it is not signalled, as its process id may be another process's by then.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.args.__childProcessId !== undefined && this.connection) await terminateProcess(this.args.__childProcessId);
    this.connection?.close();
  }

  async restart(): Promise<void> {
    const previous = this.connection;
    this.connection = undefined;
    previous?.close();
    await this.connect(true);
  }

  async disconnect(terminate: boolean): Promise<void> {
    if (terminate) return this.stop();
    this.stopping = true;
    if (this.connection) await hangUp(this.connection);
  }

  dispose(): void {
    this.stopping = true;
    this.connection?.close();
  }

  private async connect(retry: boolean): Promise<void> {
    const policy: RestartPolicy = typeof this.args.restart === "object" ? this.args.restart : {};
    const attempts = retry ? (policy.maxAttempts ?? 10) : 1;
    let delay = policy.delayMs ?? 200;
    for (let attempt = 1; ; attempt++) {
      try {
        // By port, a restarted program may have a new session id: ask /json/list again.
        const url = retry && this.args.port !== undefined && !this.args.url ? await attachUrl(this.args) : this.url!;
        const cdp = await CdpConnection.connect(url, 5000);
        this.connection = cdp;
        await this.events.connected({ cdp, first: !retry, stopOnEntry: false, ownsStderr: false });
        cdp.onClose(() => void this.connectionClosed(cdp));
        return;
      } catch (error) {
        if (attempt >= attempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  private async connectionClosed(cdp: CdpConnection): Promise<void> {
    if (this.connection !== cdp) return;
    // Closed: no connection to hang up or close, and (a child) no process left to stop.
    this.connection = undefined;
    this.events.disconnected();
    if (this.stopping) return;
    if (this.args.restart) {
      try {
        await this.connect(true);
        await this.events.reattached("rt: reattached to the restarted program\n");
        return;
      } catch {
        // Gave up: the session ends.
      }
    }
    this.events.ended();
  }
}

/** The WebSocket URL to connect to, checked against the loopback rule. */
export async function attachUrl(args: AttachArguments): Promise<string> {
  if (args.url) {
    let parsed: URL;
    try {
      parsed = new URL(args.url);
    } catch {
      throw new AttachError(`"${args.url}" is not a URL: give the ws://host:port/id address rt --inspect printed`);
    }
    if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:") throw new AttachError(`"${args.url}" is not a WebSocket URL (ws://host:port/id)`);
    checkHost(parsed.hostname.replace(/^\[|\]$/g, ""), args.allowRemote);
    return args.url;
  }
  if (args.port === undefined) throw new AttachError('the attach configuration needs "url" (ws://...) or "port"');
  if (!Number.isInteger(args.port) || args.port <= 0 || args.port > 65535) throw new AttachError(`"port": ${args.port} is not a port number (1-65535)`);
  const host = args.host ?? "127.0.0.1";
  checkHost(host, args.allowRemote);
  const targets = await listTargets(host, args.port);
  const target = targets.find((candidate) => typeof candidate.webSocketDebuggerUrl === "string");
  if (!target) throw new AttachError(`the inspector at ${host}:${args.port} lists no target to attach to`);
  return target.webSocketDebuggerUrl!;
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function checkHost(host: string, allowRemote: boolean | undefined): void {
  if (!allowRemote && !isLoopback(host)) {
    throw new AttachError(
      `"${host}" is not this machine: set "allowRemote": true to attach to another host (whoever reaches its inspector can run code there)`,
    );
  }
}

function listTargets(host: string, port: number): Promise<{ webSocketDebuggerUrl?: string }[]> {
  return new Promise((resolve, reject) => {
    const fail = (why: string) =>
      reject(new AttachError(`cannot reach an rt inspector at ${host}:${port}: ${why}; start the program with rt --inspect=${port}`));
    const request = get({ host, port, path: "/json/list", timeout: DISCOVERY_TIMEOUT_MS }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => {
        if (response.statusCode !== 200) return fail(`/json/list answered HTTP ${response.statusCode}`);
        try {
          const targets = JSON.parse(body) as unknown;
          if (!Array.isArray(targets)) return fail("/json/list is not a list");
          resolve(targets as { webSocketDebuggerUrl?: string }[]);
        } catch {
          fail("/json/list is not JSON");
        }
      });
    });
    request.on("timeout", () => request.destroy(new Error(`no answer within ${DISCOVERY_TIMEOUT_MS} ms`)));
    request.on("error", (error) => fail(error.message));
  });
}
