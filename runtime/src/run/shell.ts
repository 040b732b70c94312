// The shell a package.json script runs in, and the quoting of arguments appended to it.
//   system: on Linux/macOS the first of bash, sh, zsh on PATH; on Windows cmd.exe (as npm).
//   rt:     rt's portable bash-like shell (@yarnpkg/shell in a child process): the same
//           commands, quoting, globs and `VAR=x cmd` on every platform, Windows included.
// A simple command (`tsc -b`, `eslint .`) skips the system shell, as GNU make runs such recipe
// lines: the shell would only exec that program with those words (`bash -c` execs a lone simple
// command), so rt execs it itself and saves the shell's start (~1-2 ms per script: the largest
// share of a short script's cost, and of a workspace run's).
import * as path from "node:path";
import { ProgramError } from "../errors.js";
import { NO_SHELL_MESSAGE, POSIX_SHELLS, SAFE_WORD, SHELL_NAMES } from "./rules.js";
import { findExecutable, onWindows } from "./target.js";

export type ShellKind = "system" | "rt";

/** A process to start: the program and its arguments. */
export interface Launch {
  readonly file: string;
  readonly args: readonly string[];
  /** cmd.exe parses its own command line: hand it over untouched. */
  readonly verbatim?: boolean;
  /** Started instead when `file` cannot be (not on PATH, not executable): the shell says why. */
  readonly fallback?: () => Launch;
}

let systemShell: string | undefined;

// Each function takes the `path` of the system whose rules apply (path.win32 in tests: the
// Windows rules are checked on every system), this one's by default.

/** The process that runs a script's `command` with the script's environment `env`. */
export function scriptInvocation(kind: ShellKind, command: string, env: NodeJS.ProcessEnv, system: path.PlatformPath = path): Launch {
  return (kind === "system" && !onWindows(system) && simpleCommand(command, env)) || shellInvocation(kind, command, system, env);
}

const SHELL_WORDS = new Set(SHELL_NAMES);

/**
 * `command` as the program it names and its words, when the shell would do nothing but exec it:
 * plain words only (no quotes, variables, globs, redirections, operators or comments), the first
 * neither a shell name nor an assignment nor a path, and no environment that makes the shell
 * run code first or trace (BASH_ENV, ENV, exported functions, SHELLOPTS/BASHOPTS; zsh's
 * ~/.zshenv is skipped, but zsh is the system shell only where neither bash nor sh is on PATH).
 * The spawn itself looks the program up on the script's PATH (execvp: a file without `#!` runs
 * in sh, as under npm); if none starts, the shell runs the command and reports it as it would.
 */
function simpleCommand(command: string, env: NodeJS.ProcessEnv): Launch | undefined {
  const words = command.trim().split(/[ \t]+/);
  const name = words[0]!;
  if (!words.every((word) => SAFE_WORD.test(word)) || SHELL_WORDS.has(name) || name.includes("=") || name.includes("/")) return undefined;
  if (env.BASH_ENV || env.ENV || env.SHELLOPTS || env.BASHOPTS || Object.keys(env).some((key) => key.startsWith("BASH_FUNC_"))) return undefined;
  return { file: name, args: words.slice(1), fallback: () => shellInvocation("system", command) };
}

/** The process that runs `command` in the chosen shell (cmd.exe: the one %ComSpec% names, as npm). */
export function shellInvocation(kind: ShellKind, command: string, system: path.PlatformPath = path, env = process.env): Launch {
  if (kind === "rt") return { file: process.execPath, args: [system.join(__dirname, "rt-shell.cjs"), command] };
  if (onWindows(system)) return { file: env.ComSpec ?? "cmd.exe", args: ["/d", "/s", "/c", `"${command}"`], verbatim: true };
  return { file: systemShellFile(), args: ["-c", command] };
}

function systemShellFile(): string {
  // Looked up once (a walk over PATH), and only when a shell starts.
  systemShell ??= POSIX_SHELLS.map((name) => findExecutable(name, process.env)).find(Boolean);
  if (!systemShell) throw new ProgramError(NO_SHELL_MESSAGE, "ERR_NO_SHELL");
  return systemShell;
}

/** A binary or system command started without a shell (Windows needs cmd.exe for .cmd/.bat files). */
export function directLaunch(file: string, args: readonly string[], system: path.PlatformPath = path): Launch {
  if (!onWindows(system) || !/\.(cmd|bat)$/i.test(file)) return { file, args };
  return shellInvocation("system", [file, ...args].map(quoteForCmd).join(" "), system);
}

/**
 * The script's command with `args` appended, each quoted so the shell passes it through as one
 * word: a word of safe characters as it is, anything else in single quotes (POSIX shells and
 * rt's shell) or double quotes (cmd.exe). This is Python's shlex.quote rule, so `rt run test
 * --grep "a b"` echoes `$ vitest --grep 'a b'` and never lets an argument run as shell code.
 */
export function appendArguments(command: string, args: readonly string[], kind: ShellKind, system: path.PlatformPath = path): string {
  if (args.length === 0) return command;
  const quote = onWindows(system) && kind === "system" ? quoteForCmd : quoteForPosix;
  return `${command} ${args.map(quote).join(" ")}`;
}

function quoteForPosix(arg: string): string {
  return SAFE_WORD.test(arg) ? arg : `'${arg.replaceAll("'", `'"'"'`)}'`;
}

function quoteForCmd(arg: string): string {
  return SAFE_WORD.test(arg) ? arg : `"${arg.replaceAll('"', '""')}"`;
}
