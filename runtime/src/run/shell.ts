// The shell a package.json script runs in, and the quoting of arguments appended to it.
//   system: on Linux/macOS the first of bash, sh, zsh on PATH; on Windows cmd.exe (as npm).
//   rt:     rt's portable bash-like shell (@yarnpkg/shell in a child process): the same
//           commands, quoting, globs and `VAR=x cmd` on every platform, Windows included.
import * as path from "node:path";
import { ProgramError } from "../errors.js";
import { findExecutable } from "./target.js";

export type ShellKind = "system" | "rt";

/** A process to start: the program and its arguments. */
export interface Launch {
  readonly file: string;
  readonly args: readonly string[];
  /** cmd.exe parses its own command line: hand it over untouched. */
  readonly verbatim?: boolean;
}

const WINDOWS = process.platform === "win32";
const POSIX_SHELLS = ["bash", "sh", "zsh"];
let systemShell: string | undefined;

/** The process that runs `command` in the chosen shell. */
export function shellInvocation(kind: ShellKind, command: string): Launch {
  if (kind === "rt") return { file: process.execPath, args: [path.join(__dirname, "rt-shell.cjs"), command] };
  if (WINDOWS) return { file: process.env.ComSpec ?? "cmd.exe", args: ["/d", "/s", "/c", `"${command}"`], verbatim: true };
  systemShell ??= POSIX_SHELLS.map((name) => findExecutable(name, process.env)).find(Boolean);
  if (!systemShell) throw new ProgramError("No shell found on PATH (looked for bash, sh and zsh); install one, or run scripts with --shell=rt", "ERR_NO_SHELL");
  return { file: systemShell, args: ["-c", command] };
}

/** A binary or system command started without a shell (Windows needs cmd.exe for .cmd/.bat files). */
export function directLaunch(file: string, args: readonly string[]): Launch {
  if (!WINDOWS || !/\.(cmd|bat)$/i.test(file)) return { file, args };
  return shellInvocation("system", [file, ...args].map(quoteForCmd).join(" "));
}

/**
 * The script's command with `args` appended, each quoted so the shell passes it through as one
 * word: a word of safe characters as it is, anything else in single quotes (POSIX shells and
 * rt's shell) or double quotes (cmd.exe). This is Python's shlex.quote rule, so `rt run test
 * --grep "a b"` echoes `$ vitest --grep 'a b'` and never lets an argument run as shell code.
 */
export function appendArguments(command: string, args: readonly string[], kind: ShellKind): string {
  if (args.length === 0) return command;
  const quote = WINDOWS && kind === "system" ? quoteForCmd : quoteForPosix;
  return `${command} ${args.map(quote).join(" ")}`;
}

const SAFE_WORD = /^[\w@%+=:,./-]+$/;

function quoteForPosix(arg: string): string {
  return SAFE_WORD.test(arg) ? arg : `'${arg.replaceAll("'", `'"'"'`)}'`;
}

function quoteForCmd(arg: string): string {
  return SAFE_WORD.test(arg) ? arg : `"${arg.replaceAll('"', '""')}"`;
}
