// Starts rt with a debugger flag and speaks the Chrome DevTools Protocol to it over a real
// WebSocket, as a debugger client would.
import { spawn } from "node:child_process";
import { RT_BIN } from "./rt.mjs";

/**
 * Starts `rt ...args`; `banner` resolves once the banner is complete, with the WebSocket URL.
 * The process is killed when the test ends, so a failed assertion never leaves it paused.
 */
export function startInspected(t, args, { cwd, env = {} } = {}) {
  const child = spawn(process.execPath, ["--", RT_BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: "1", ...env } });
  t.after(() => child.kill("SIGKILL"));
  const output = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (chunk) => (output.stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => (output.stderr += chunk));
  const exited = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, ...output })));
  const banner = new Promise((resolve, reject) => {
    const check = () => {
      const match = /Listening:\n {2}(ws:\/\/\S+)\n[\s\S]*?-{5,} rt inspector -{5,}\n$/m.exec(output.stderr);
      if (match && output.stderr.split("rt inspector").length > 2) resolve(match[1]);
    };
    child.stderr.on("data", check);
    child.on("close", (code, signal) => reject(new Error(`rt exited (code ${code}, signal ${signal}) before its banner:\n${output.stderr}`)));
  });
  banner.catch(() => {}); // a test that expects no banner need not await it
  return { child, output, banner, exited };
}

export class CdpClient {
  static async connect(url, headers) {
    const socket = new WebSocket(url, headers ? { headers } : undefined);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error(`cannot connect to ${url}`));
    });
    return new CdpClient(socket);
  }

  constructor(socket) {
    this.socket = socket;
    this.nextId = 1;
    this.pending = new Map();
    this.events = [];
    this.waiters = [];
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data));
      if (message.id !== undefined && this.pending.has(message.id)) {
        this.pending.get(message.id)(message);
        this.pending.delete(message.id);
        return;
      }
      this.events.push(message);
      this.waiters = this.waiters.filter((waiter) => !waiter(message));
    };
  }

  /** Sends a command; resolves with the whole response ({ id, result } or { id, error }). */
  raw(method, params, timeout = 15_000) {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method} within ${timeout} ms`)), timeout).unref();
      this.pending.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  async send(method, params) {
    const response = await this.raw(method, params);
    if (response.error) throw new Error(`${method}: ${response.error.message}`);
    return response.result;
  }

  /** The next event named `method` (including one already received) matching `filter`. */
  event(method, filter = () => true, timeout = 15_000) {
    const seen = this.events.findIndex((event) => event.method === method && filter(event.params));
    if (seen !== -1) return Promise.resolve(this.events.splice(seen, 1)[0].params);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${method} within ${timeout} ms`)), timeout);
      this.waiters.push((message) => {
        if (message.method !== method || !filter(message.params)) return false;
        clearTimeout(timer);
        this.events.splice(this.events.indexOf(message), 1);
        resolve(message.params);
        return true;
      });
    });
  }

  close() {
    this.socket.close();
  }

  /** Resolves with the close event's code once the server has closed the connection (or it was closed here). */
  closed() {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve(this.closeCode);
    return new Promise((resolve) => this.socket.addEventListener("close", (event) => resolve((this.closeCode = event.code))));
  }
}

export const WAITING_FOR_DISCONNECT = "Waiting for the debugger to disconnect...\n";

/**
 * The program has ended with `client` attached: rt says it waits for the debugger (as Node does),
 * the client disconnects and rt exits. Resolves with what rt's process gave.
 */
export async function disconnectAtEnd(run, client) {
  while (!run.output.stderr.includes(WAITING_FOR_DISCONNECT)) {
    if (run.child.exitCode !== null) throw new Error(`rt exited without waiting for its debugger:\n${run.output.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  client.close();
  const result = await run.exited;
  if (result.signal) throw new Error(`rt ended by ${result.signal} after its debugger disconnected:\n${result.stderr}`);
  return result;
}
