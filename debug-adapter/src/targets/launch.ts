// Launching rt under the debugger: rt starts with --inspect-wait on a loopback port with a fresh
// session id (or, for a package.json script, `rt run <script>` with RT_INSPECT so the rt process
// the script starts is the one debugged), and tells where it listens through RT_INSPECT_NOTIFY:
// a Unix socket (named pipe on Windows) this side listens on, so the address is known without
// reading rt's stderr, which under runInTerminal this side doesn't have. Under watchMode every
// restarted program reports in again on the same socket.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { LaunchArguments } from "../configuration.js";
import { lookUpOnPath } from "./path-lookup.js";

/** What a launched rt reported on the notify channel. */
export interface Announcement {
  readonly url: string;
  readonly pid: number;
  /** A process the program started (RT_INSPECT_CHILDREN), not the launched program itself. */
  readonly child?: boolean;
  /** The child's parent process, and the file it runs. */
  readonly ppid?: number;
  readonly entry?: string;
}

export class LaunchError extends Error {}

/** A launch config, checked and turned into a command line and an environment. */
export interface LaunchPlan {
  readonly executable: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The variables to add (null: remove), on top of the adapter's environment. */
  readonly envChanges: Readonly<Record<string, string | null>>;
  readonly env: NodeJS.ProcessEnv;
  readonly notifyPath: string | undefined;
  /** The entry file (program launches), for stopOnEntry. */
  readonly entry: string | undefined;
}

export function planLaunch(args: LaunchArguments, defaultRuntime: string | undefined): LaunchPlan {
  if (args.program && args.script) throw new LaunchError('give either "program" or "script" in the launch configuration, not both');
  if (!args.program && !args.script) throw new LaunchError('the launch configuration needs "program" (a file to run) or "script" (a package.json script)');
  const baseDir = args.cwd ?? (args.program ? path.dirname(path.resolve(args.program)) : process.cwd());
  const cwd = path.resolve(baseDir);
  if (!isDirectory(cwd)) throw new LaunchError(`the working directory "${cwd}" (cwd) does not exist`);
  let entry: string | undefined;
  if (args.program) {
    entry = path.resolve(cwd, args.program);
    if (!existsSync(entry)) throw new LaunchError(`the program "${entry}" does not exist: check "program" in the launch configuration`);
  }
  const runtime = findExecutable(args.runtimeExecutable ?? defaultRuntime ?? "rt", cwd, args.runtimeExecutable !== undefined);
  const envChanges: Record<string, string | null> = { ...readEnvFile(args.envFile, cwd), ...(args.env ?? {}) };
  const debug = !args.noDebug;
  const notifyPath = debug ? notifySocketPath() : undefined;
  const rtArgs = [...(args.runtimeArgs ?? [])];
  if (args.watchMode) rtArgs.push(args.watchMode === "hot" ? "--hot" : "--watch");
  const inspectValue = `127.0.0.1:0/${randomUUID()}`;
  if (debug) {
    envChanges.RT_INSPECT_NOTIFY = notifyPath!;
    // Kept by every process below: each rt one reports in there too, waiting for its own session.
    if (args.autoAttachChildProcesses !== false) envChanges.RT_INSPECT_CHILDREN = notifyPath!;
    if (args.console !== "integratedTerminal") envChanges.RT_INSPECT_CONSOLE = "debugger";
  }
  if (args.script) {
    if (debug) envChanges.RT_INSPECT = `inspect-wait=${inspectValue}`;
    rtArgs.push("run", args.script, ...(args.args ?? []));
  } else {
    if (debug) rtArgs.push(`--inspect-wait=${inspectValue}`);
    rtArgs.push(entry!, ...(args.args ?? []));
  }
  // A JavaScript file as rt (the launcher bin/rt.cjs): run it with this Node.
  const direct = /\.[cm]?js$/.test(runtime) && !process.versions.electron;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(envChanges)) {
    if (value === null) delete env[name];
    else env[name] = value;
  }
  return {
    executable: direct ? process.execPath : runtime,
    args: direct ? [runtime, ...rtArgs] : rtArgs,
    cwd,
    envChanges,
    env,
    notifyPath,
    entry,
  };
}

/** Listens on the notify socket; `next()` resolves with the next program that reports in. */
export class NotifyChannel {
  private readonly queue: Announcement[] = [];
  private readonly waiters: ((announcement: Announcement) => void)[] = [];
  private readonly server: Server;
  private childListener: ((announcement: Announcement) => void) | undefined;

  static async open(socketPath: string): Promise<NotifyChannel> {
    const channel = new NotifyChannel(socketPath);
    await new Promise<void>((resolve, reject) => {
      channel.server.once("error", (error) => reject(new LaunchError(`cannot listen on ${socketPath} for rt to report in: ${error.message}`)));
      channel.server.listen(socketPath, () => resolve());
    });
    return channel;
  }

  private constructor(private readonly socketPath: string) {
    this.server = createServer((socket) => {
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk) => (text += chunk));
      socket.on("error", () => {});
      socket.on("end", () => {
        for (const line of text.split("\n")) {
          try {
            const announcement = JSON.parse(line) as Announcement;
            if (typeof announcement.url === "string" && /^ws:\/\//.test(announcement.url)) this.deliver(announcement);
          } catch {
            // Not an announcement: ignored.
          }
        }
      });
    });
    this.server.unref();
  }

  /** The next announcement, or an error when `giveUp` settles first. */
  next(giveUp: Promise<string>): Promise<Announcement> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const waiter = (announcement: Announcement) => resolve(announcement);
      this.waiters.push(waiter);
      void giveUp.then((reason) => {
        const index = this.waiters.indexOf(waiter);
        if (index === -1) return;
        this.waiters.splice(index, 1);
        reject(new LaunchError(reason));
      });
    });
  }

  /** Children of the program report in on the same channel: they go here, not to next(). */
  onChild(listener: (announcement: Announcement) => void): void {
    this.childListener = listener;
  }

  close(): void {
    this.server.close();
    if (process.platform !== "win32") rmSync(this.socketPath, { force: true });
  }

  private deliver(announcement: Announcement): void {
    if (announcement.child) {
      this.childListener?.(announcement);
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter(announcement);
    else this.queue.push(announcement);
  }
}

/** A launched rt that this adapter owns (console: internalConsole). */
export function spawnRt(plan: LaunchPlan): ChildProcess {
  return spawn(plan.executable, [...plan.args], { cwd: plan.cwd, env: plan.env, stdio: ["pipe", "pipe", "pipe"] });
}

/** Stops a process: SIGTERM, then SIGKILL if it is still there after `graceMs`. */
export function terminateProcess(pid: number, graceMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      return resolve();
    }
    const started = Date.now();
    const timer = setInterval(() => {
      if (!alive()) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() - started > graceMs) {
        clearInterval(timer);
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Gone meanwhile.
        }
        resolve();
      }
    }, 25);
  });
}

function notifySocketPath(): string {
  const name = `rt-debug-${randomUUID().slice(0, 8)}`;
  return process.platform === "win32" ? `\\\\.\\pipe\\${name}` : path.join(tmpdir(), `${name}.sock`);
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** An executable given as a path must exist; a bare name is looked up on PATH. */
function findExecutable(name: string, cwd: string, given: boolean): string {
  const where = given ? " (runtimeExecutable)" : "";
  if (name.includes("/") || name.includes("\\")) {
    const file = path.resolve(cwd, name);
    if (!existsSync(file))
      throw new LaunchError(`the rt executable "${file}"${where} does not exist: fix "runtimeExecutable" or leave it out to use rt from PATH`);
    return file;
  }
  const found = lookUpOnPath(name);
  if (found) return found;
  throw new LaunchError(`"${name}"${where} was not found on PATH: install rt (npm i -D rt-runtime) or set "runtimeExecutable" to its path`);
}

/** KEY=value lines; # comments; optional quotes. */
function readEnvFile(file: string | undefined, cwd: string): Record<string, string> {
  if (!file) return {};
  const resolved = path.resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(resolved, "utf8");
  } catch {
    throw new LaunchError(`the envFile "${resolved}" cannot be read: check "envFile" in the launch configuration`);
  }
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith("#")) continue;
    let value = match[2]!;
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    if (match[2]!.startsWith('"')) value = value.replace(/\\n/g, "\n");
    values[match[1]!] = value;
  }
  return values;
}
