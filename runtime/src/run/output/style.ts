// Colours of the script runner's output: on a terminal only, never with NO_COLOR, always with
// FORCE_COLOR (https://no-color.org, https://force-color.org).

export interface Paint {
  /** `text` in the given SGR codes (`RED`, `BOLD`, ...), or as it is without colour. */
  (text: string, ...codes: string[]): string;
  /** The reset sequence with colour, else "". */
  readonly reset: string;
}

export function painter(fd: 1 | 2): Paint {
  const { NO_COLOR, FORCE_COLOR, TERM } = process.env;
  const on = NO_COLOR ? false : FORCE_COLOR ? FORCE_COLOR !== "0" : isTerminal(fd) && TERM !== "dumb";
  const paint = on ? (text: string, ...codes: string[]) => `${codes.map((code) => `\x1b[${code}m`).join("")}${text}\x1b[0m` : (text: string) => text;
  return Object.assign(paint, { reset: on ? "\x1b[0m" : "" });
}

export const BOLD = "1";
export const DIM = "2";
export const RED = "31";
export const MAGENTA = "35";
export const CYAN = "36";

/** `Exited with code 2` or `Signaled: SIGINT`: how a step ended, in Bun's words. */
export function endedText(outcome: { exitCode: number; signal?: string }): string {
  return outcome.signal ? `Signaled: ${outcome.signal}` : `Exited with code ${outcome.exitCode}`;
}

/** Whether `fd` is a terminal; node:tty is required on first use, not at every rt start. */
export function isTerminal(fd: 1 | 2): boolean {
  return (require("node:tty") as typeof import("node:tty")).isatty(fd);
}
