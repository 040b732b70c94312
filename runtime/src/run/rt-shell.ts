// rt's portable shell (--shell=rt), a program of its own: `node rt-shell.cjs <command>` runs the
// command with @yarnpkg/shell, the bash-like interpreter Yarn runs every script with (and pnpm
// with shell-emulator): the same quoting, `&&`/`||`/`;`, pipes, redirections, globs, `$VAR`,
// `$(...)` and `VAR=x cmd` on Linux, macOS and Windows, no system shell needed. Being a separate
// process, it gets the same process group, signal forwarding and exit codes as a system shell.
import { execute } from "@yarnpkg/shell";

// The interpreter waits for its children on SIGINT and kills them on SIGTERM (its own handlers);
// remembering the signal lets this process end by it too, so rt reports 128 + n.
let signal: NodeJS.Signals | undefined;
for (const name of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(name, () => (signal ??= name));

execute(process.argv[2] ?? "").then((code) => {
  if (signal && code !== 0) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exitCode = code;
});
