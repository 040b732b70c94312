// Handing this process over to another program: process.execve where the system has it (one
// process: the pid, signals, stdio and exit code are the new program's own), else (Windows, whose
// Node has no execve) a child on the same stdio whose end becomes this process's end.

/** Signals a child started in place of this process also needs: Windows' console delivers Ctrl+C and Ctrl+Break to both. */
const FORWARDED: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"];

/**
 * Starts argv (argv[0] is the executable) in place of this process. Returns only in the spawn
 * fallback, once the child started: the caller then does nothing more, and this process exits
 * with the child's exit code, or dies of the child's signal.
 */
export function replaceProcess(argv: readonly string[], execve: typeof process.execve | null = process.execve): void {
  const [file, ...args] = argv as [string, ...string[]];
  if (execve) return execve(file, [...argv], process.env);
  // Loaded here only: rt's start loads no child_process (the startup-budget tests).
  const { spawn } = require("node:child_process") as typeof import("node:child_process");
  const child = spawn(file, args, { stdio: "inherit", env: process.env });
  const forward = (signal: NodeJS.Signals) => {
    // Windows' console already told the child; elsewhere rt passes the signal on.
    if (process.platform !== "win32") child.kill(signal);
  };
  for (const signal of FORWARDED) process.on(signal, forward);
  child.on("error", (error) => {
    process.stderr.write(`rt: cannot start ${file}: ${error.message}\n`);
    process.exit(126);
  });
  child.on("exit", (code, signal) => {
    for (const forwarded of FORWARDED) process.off(forwarded, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}
