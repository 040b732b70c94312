// A small DAP client over stdio, as an editor is: starts the standalone adapter
// (dist/main.cjs), sends requests, collects events, answers the adapter's runInTerminal request
// by starting the command itself (as VS Code's integrated terminal would) and its startDebugging
// request by starting a child session: another adapter, attached with the configuration given and
// the same breakpoints (as VS Code does for a child process).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const ADAPTER = fileURLToPath(new URL("../dist/main.cjs", import.meta.url));
export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const RT_BIN = path.join(REPO, "runtime", "bin", "rt.cjs");
export const FIXTURES = path.join(REPO, "test", "fixtures", "debug");

export class DapClient {
  /** Starts the adapter; it is stopped (and any program it started) when the test ends. */
  static start(t) {
    const child = spawn(process.execPath, [ADAPTER], { stdio: ["pipe", "pipe", "pipe"] });
    if (process.env.RT_DEBUG_ADAPTER_TRACE) child.stderr.pipe(process.stderr);
    const client = new DapClient(child);
    t?.after(() => client.close());
    return client;
  }

  /**
   * The adapter in this process, as VS Code runs it (an inline adapter): `adapter` is the loaded
   * package (dist/index.cjs), so the test shares its state (a program started ahead of a launch).
   */
  static inProcess(t, adapter, options = {}) {
    const session = new adapter.RtDebugSession(options);
    const client = new DapClient(undefined, session);
    t?.after(() => client.close());
    return client;
  }

  constructor(child, session) {
    this.child = child;
    this.session = session;
    this.seq = 1;
    this.pending = new Map();
    this.events = [];
    this.waiters = [];
    this.terminals = [];
    /** Child sessions the adapter asked for (startDebugging), in order. */
    this.children = [];
    this.childWaiters = [];
    this.breakpoints = {};
    /** How long this client takes to start a child session the adapter asks for. */
    this.childSessionDelay = 0;
    /** How long this client takes to open a terminal the adapter asks for. */
    this.terminalDelay = 0;
    this.adapterStderr = "";
    if (session) {
      session.onDidSendMessage((message) => this.receive(message));
      return;
    }
    let buffer = Buffer.alloc(0);
    child.stderr.on("data", (chunk) => (this.adapterStderr += chunk));
    child.stdout.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const headerEnd = buffer.indexOf("\r\n\r\n");
        if (headerEnd === -1) break;
        const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())[1]);
        if (buffer.length < headerEnd + 4 + length) break;
        const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8"));
        buffer = buffer.subarray(headerEnd + 4 + length);
        this.receive(message);
      }
    });
  }

  receive(message) {
    if (message.type === "response") {
      const pending = this.pending.get(message.request_seq);
      this.pending.delete(message.request_seq);
      pending?.(message);
    } else if (message.type === "event") {
      this.events.push(message);
      this.waiters = this.waiters.filter((waiter) => !waiter(message));
    } else if (message.type === "request" && message.command === "runInTerminal" && this.terminalDelay > 0) {
      const delay = this.terminalDelay;
      this.terminalDelay = 0;
      setTimeout(() => this.receive(message), delay);
    } else if (message.type === "request" && message.command === "runInTerminal") {
      const [command, ...args] = message.arguments.args;
      const env = { ...process.env };
      for (const [name, value] of Object.entries(message.arguments.env ?? {})) {
        if (value === null) delete env[name];
        else env[name] = value;
      }
      const terminal = spawn(command, args, { cwd: message.arguments.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      const output = { stdout: "", stderr: "" };
      terminal.stdout.setEncoding("utf8").on("data", (chunk) => (output.stdout += chunk));
      terminal.stderr.setEncoding("utf8").on("data", (chunk) => (output.stderr += chunk));
      this.terminals.push({ process: terminal, output });
      this.send({ type: "response", request_seq: message.seq, command: "runInTerminal", success: true, body: { processId: terminal.pid } });
    } else if (message.type === "request" && message.command === "startDebugging") {
      const child = DapClient.start();
      // As VS Code: the session starts (after `childSessionDelay` ms, an editor slow to start it),
      // and the answer comes once it has attached.
      const started = new Promise((resolve) => setTimeout(resolve, this.childSessionDelay)).then(() =>
        child.start(message.arguments.request, message.arguments.configuration, { breakpoints: this.breakpoints }),
      );
      this.children.push({ session: child, configuration: message.arguments.configuration, started });
      this.childWaiters.splice(0).forEach((wake) => wake());
      started.then(
        () => this.send({ type: "response", request_seq: message.seq, command: "startDebugging", success: true }),
        (error) => this.send({ type: "response", request_seq: message.seq, command: "startDebugging", success: false, message: error.message }),
      );
    }
  }

  send(message) {
    if (this.session) return this.session.handleMessage({ seq: this.seq++, ...message });
    const json = JSON.stringify({ seq: this.seq++, ...message });
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
  }

  /** Sends a request; resolves with the whole response (success or not). */
  raw(command, args, timeout = 40_000) {
    const seq = this.seq;
    // Registered first: an adapter in this process may answer within send().
    const answered = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${command} within ${timeout} ms\n${this.adapterStderr}`)), timeout);
      this.pending.set(seq, (response) => {
        clearTimeout(timer);
        resolve(response);
      });
    });
    this.send({ type: "request", command, arguments: args });
    return answered;
  }

  /** Sends a request; resolves with its body, throws with the adapter's message on failure. */
  async request(command, args) {
    const response = await this.raw(command, args);
    if (!response.success) throw new Error(`${command}: ${response.message}`);
    return response.body ?? {};
  }

  /** The next event named `name` (including one already received, taken once) matching `filter`. */
  event(name, filter = () => true, timeout = 30_000) {
    const seen = this.events.findIndex((event) => event.event === name && !event.taken && filter(event.body ?? {}));
    if (seen !== -1) {
      this.events[seen].taken = true;
      return Promise.resolve(this.events[seen].body ?? {});
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${name} event within ${timeout} ms; output so far:\n${this.output()}`)), timeout);
      this.waiters.push((event) => {
        if (event.event !== name || event.taken || !filter(event.body ?? {})) return false;
        clearTimeout(timer);
        event.taken = true;
        resolve(event.body ?? {});
        return true;
      });
    });
  }

  /** Every output event's text so far, in order. */
  output(category) {
    return this.events
      .filter((event) => event.event === "output" && (!category || event.body.category === category))
      .map((event) => event.body.output)
      .join("");
  }

  /**
   * initialize (with `capabilities` added to the client's), then launch/attach with the given
   * breakpoints set before configurationDone.
   */
  async start(command, args, { breakpoints = {}, exceptionFilters, capabilities = {} } = {}) {
    this.breakpoints = breakpoints;
    await this.request("initialize", {
      adapterID: "rt",
      linesStartAt1: true,
      columnsStartAt1: true,
      pathFormat: "path",
      supportsRunInTerminalRequest: true,
      supportsStartDebuggingRequest: true,
      supportsVariablePaging: true,
      ...capabilities,
    });
    const started = this.raw(command, args);
    await this.event("initialized");
    const set = {};
    for (const [file, lines] of Object.entries(breakpoints)) {
      set[file] = (
        await this.request("setBreakpoints", { source: { path: file }, breakpoints: lines.map((line) => (typeof line === "number" ? { line } : line)) })
      ).breakpoints;
    }
    if (exceptionFilters) await this.request("setExceptionBreakpoints", { filters: exceptionFilters });
    await this.request("configurationDone");
    const response = await started;
    if (!response.success) throw new Error(`${command}: ${response.message}`);
    return set;
  }

  launch(args, options) {
    return this.start("launch", { runtimeExecutable: RT_BIN, ...args }, options);
  }

  stopped() {
    return this.event("stopped");
  }

  async topFrame() {
    const { stackFrames } = await this.request("stackTrace", { threadId: 1 });
    return stackFrames[0];
  }

  /** The `index`th child session (0-based) once the adapter asked for it: { session, configuration, started }. */
  async childSession(index = 0, timeout = 30_000) {
    const deadline = Date.now() + timeout;
    while (!this.children[index]) {
      if (Date.now() > deadline) throw new Error(`no child session ${index} within ${timeout} ms; output so far:\n${this.output()}`);
      await new Promise((resolve) => {
        this.childWaiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return this.children[index];
  }

  close() {
    for (const { session } of this.children) session.close();
    for (const terminal of this.terminals) terminal.process.kill("SIGKILL");
    if (this.session) {
      this.raw("disconnect", { terminateDebuggee: true }, 5000)
        .catch(() => {})
        .finally(() => this.session.dispose());
    } else if (this.child.exitCode === null) {
      this.raw("disconnect", { terminateDebuggee: true }, 5000)
        .catch(() => {})
        .finally(() => this.child.kill());
    }
  }
}
