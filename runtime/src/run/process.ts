// The script runner's child processes. On Linux/macOS each starts in a process group (and
// session) of its own, and SIGINT, SIGTERM and SIGHUP that rt receives are sent to every running
// group: the shell and everything it started get the signal, however deep, and rt waits for them
// and exits with their status (a process killed by signal n gives 128 + n, as in a shell).
// Scripts keep rt's stdin, stdout and stderr (no controlling terminal of their own, so a program
// that opens /dev/tty itself finds none; reading stdin works). SIGWINCH is forwarded too, so
// full-screen programs see the terminal resize.
//
// Groups of their own are missed by a signal to rt's group (coreutils `timeout -s KILL`, a
// cancelled CI job, `kill -KILL -- -PGID`, Ctrl-\), which would end rt and leave the scripts
// running. So rt's end takes them with it: a guardian, /bin/sh in a session of its own (outside
// every group such a signal reaches), reads a pipe only rt writes (GUARDIAN_PROGRAM, which the
// compiled front runs too).
import type { ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";
import { ProgramError } from "../errors.js";
import { GUARDIAN_PROGRAM } from "./rules.js";
import type { Launch } from "./shell.js";

export interface Outcome {
  /** What rt reports and exits with: the exit code, or 128 + n for a process killed by signal n. */
  readonly exitCode: number;
  readonly signal?: NodeJS.Signals;
  readonly ms: number;
}

export interface ChildRun {
  readonly outcome: Promise<Outcome>;
  /** Null unless started with `pipe`. */
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** Sends `signal` to the process group. */
  interrupt(signal: NodeJS.Signals): void;
}

export interface StartOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Capture stdout and stderr (stdin is then /dev/null); otherwise the child shares rt's stdio. */
  readonly pipe: boolean;
}

const POSIX = process.platform !== "win32";
const FORWARDED: readonly NodeJS.Signals[] = POSIX ? ["SIGINT", "SIGTERM", "SIGHUP", "SIGWINCH"] : ["SIGINT", "SIGTERM", "SIGHUP"];
const running = new Set<ChildProcess>();
let received: NodeJS.Signals | undefined;
let guardian: Writable | undefined;

/** The first terminating signal rt received while scripts ran: nothing new should start. */
export function receivedSignal(): NodeJS.Signals | undefined {
  return received;
}

export function exitCodeOfSignal(signal: NodeJS.Signals): number {
  const { constants } = require("node:os") as typeof import("node:os");
  return 128 + (constants.signals[signal] ?? 0);
}

/** Linux's MAX_ARG_STRLEN: the most one argument of an exec may take, its final NUL included. */
const MAX_ARGUMENT_BYTES = 128 * 1024;

/**
 * Why Linux would refuse to start `launch` with a bare E2BIG: one argument too long. Arguments
 * after a script's name are quoted into its command (`'` takes 5 bytes then), so they can pass
 * the limit although each reached rt under it. The compiled front says the same (process.go).
 */
function argumentTooLong({ file, args }: Launch): string | undefined {
  if (process.platform !== "linux") return undefined;
  for (const [index, arg] of args.entries()) {
    const bytes = Buffer.byteLength(arg);
    if (bytes >= MAX_ARGUMENT_BYTES) {
      return `cannot start ${file}: argument ${index + 1} is ${bytes} bytes once quoted, over Linux's limit of ${MAX_ARGUMENT_BYTES - 1} bytes for one argument: pass that much data in a file or on stdin`;
    }
  }
  return undefined;
}

export function startChild(launch: Launch, { cwd, env, pipe }: StartOptions): ChildRun {
  const tooLong = argumentTooLong(launch);
  if (tooLong) throw new ProgramError(tooLong, "ERR_SPAWN");
  // Required here, not imported: the CLI bundle loads its imports at every start (~4 ms for this one).
  const { spawn } = require("node:child_process") as typeof import("node:child_process");
  // Listening before the child exists: a signal that comes while it starts is not lost.
  if (running.size === 0) listen(true);
  if (POSIX) guardian ??= startGuardian(spawn);
  // process.hrtime, not performance.now(): the `performance` global loads perf_hooks (~1.5 ms).
  const started = process.hrtime.bigint();
  const start = ({ file, args, verbatim }: Launch): ChildProcess =>
    spawn(file, args, { cwd, env, stdio: pipe ? ["ignore", "pipe", "pipe"] : "inherit", detached: POSIX, windowsVerbatimArguments: verbatim });
  const child = startOrFallBack(launch, start);
  running.add(child);
  watchRunning();
  if (received) signalGroup(child, received);
  const outcome = new Promise<Outcome>((resolve, reject) => {
    child.once("error", (error) => {
      untrack(child);
      reject(new ProgramError(`cannot start ${launch.file}: ${error.message}`, "ERR_SPAWN"));
    });
    child.once("close", (code, signal) => {
      untrack(child);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      resolve(signal ? { exitCode: exitCodeOfSignal(signal), signal, ms } : { exitCode: code ?? 1, ms });
    });
  });
  return { outcome, stdout: child.stdout, stderr: child.stderr, interrupt: (signal) => signalGroup(child, signal) };
}

/** `launch` started, or its fallback when it does not start (not found, not executable). */
function startOrFallBack(launch: Launch, start: (launch: Launch) => ChildProcess): ChildProcess {
  if (!launch.fallback) return start(launch);
  let child: ChildProcess | undefined;
  try {
    child = start(launch);
  } catch {
    // Not startable at all (a symlink loop, say): the fallback reports it.
  }
  if (child?.pid !== undefined) return child;
  // No pid: its error event follows, and is not rt's to report.
  child?.once("error", () => {});
  return start(launch.fallback());
}

function listen(on: boolean): void {
  for (const signal of FORWARDED) process[on ? "on" : "off"](signal, forward);
  if (POSIX) process[on ? "on" : "off"]("SIGQUIT", quit);
}

/**
 * SIGQUIT ends rt by its default action, as it ends Node, but never between a child's start and
 * the guardian's learning of it: a handler runs only after the code that does both.
 */
function quit(): void {
  listen(false);
  process.kill(process.pid, "SIGQUIT");
}

function untrack(child: ChildProcess): void {
  if (!running.delete(child)) return;
  watchRunning();
  if (running.size === 0) listen(false);
}

function startGuardian(spawn: typeof import("node:child_process").spawn): Writable {
  // The root directory: it keeps no directory of the user's busy.
  const child = spawn("/bin/sh", ["-c", GUARDIAN_PROGRAM], { cwd: "/", env: {}, stdio: ["pipe", "ignore", "ignore"], detached: true });
  // Without it (no /bin/sh) scripts still run.
  child.on("error", () => {});
  child.stdin!.on("error", () => {});
  // Neither keeps rt alive: it ends when rt does.
  child.unref();
  (child.stdin as Socket).unref();
  return child.stdin!;
}

/** Makes the running groups the ones to kill if rt ends now. */
function watchRunning(): void {
  const groups = [...running].flatMap((child) => (child.pid === undefined ? [] : [`-${child.pid}`]));
  // libuv writes a short line into the pipe at once: rt ending later cannot cut it in half.
  guardian?.write(`${groups.join(" ")}\n`);
}

function forward(signal: NodeJS.Signals): void {
  if (signal !== "SIGWINCH") received ??= signal;
  for (const child of running) signalGroup(child, signal);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (POSIX) process.kill(-child.pid!, signal);
    else child.kill(signal);
  } catch {
    // The group is already gone.
  }
}
