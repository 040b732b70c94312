// Errors caused by the user's input. The CLI prints them without a stack and exits with
// their code; anything else that escapes is a bug in rt or an error in the user's program.

/** A command-line mistake: printed as `rt: <message>`, exit 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/**
 * A problem with the user's program or project (missing module, syntax error), exit 1.
 * `display` is the full text shown to the user; the stack holds no rt-internal frames.
 */
export class ProgramError extends Error {
  readonly exitCode = 1;
  readonly display: string;
  constructor(
    message: string,
    readonly code: string,
    display?: string,
  ) {
    super(message);
    this.display = display ?? `error: ${message}\n`;
    this.stack = this.display.trimEnd();
  }
}
