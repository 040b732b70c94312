// --unhandled-rejections with Node's semantics, in-process: Node reads its own option only at
// process start, and emulating the four non-default modes costs nothing while a restart costs a
// Node boot. rt's listener is registered before the program runs, so it is the first one called;
// Node then sees the rejection as handled and leaves the mode's behaviour to it. The default
// mode (throw) needs no listener: Node's own behaviour is that mode.
export function handleRejections(mode: "strict" | "warn" | "none" | "warn-with-error-code"): void {
  let rejections = 0;
  process.on("unhandledRejection", (reason) => {
    const id = ++rejections;
    // The program's own listeners run after this one, as they would under Node.
    const handledByProgram = process.listenerCount("unhandledRejection") > 1;
    switch (mode) {
      case "strict":
        raiseUncaught(reason);
        if (!handledByProgram) warn(reason, id);
        break;
      case "warn":
        warn(reason, id);
        break;
      case "warn-with-error-code":
        if (!handledByProgram) {
          warn(reason, id);
          process.exitCode = 1;
        }
        break;
      case "none":
        break;
    }
  });
}

/** As Node's triggerUncaughtException for a promise: monitors, then the uncaughtException listeners (rt's report among them). */
function raiseUncaught(reason: unknown): void {
  const error = isErrorLike(reason) ? reason : new UnhandledPromiseRejection(reason);
  const emit = process.emit.bind(process) as (event: string, ...args: unknown[]) => boolean;
  emit("uncaughtExceptionMonitor", error, "unhandledRejection");
  emit("uncaughtException", error, "unhandledRejection");
}

/** Node's two warnings: the reason, then the explanation with the rejection's id. */
function warn(reason: unknown, id: number): void {
  const name = "UnhandledPromiseRejectionWarning";
  process.emitWarning(isErrorLike(reason) ? String(reason.stack) : describe(reason), name);
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const warning = new Error(
    "Unhandled promise rejection. This error originated either by throwing inside of an async function without a catch block, " +
      "or by rejecting a promise which was not handled with .catch(). To terminate the node process on unhandled promise rejection, " +
      "use the CLI flag `--unhandled-rejections=strict` (see https://nodejs.org/api/cli.html#cli_unhandled_rejections_mode). " +
      `(rejection id: ${id})`,
  );
  Error.stackTraceLimit = limit;
  warning.name = name;
  if (isErrorLike(reason)) warning.stack = String(reason.stack);
  process.emitWarning(warning);
}

/** Node's error for a rejection whose reason is not an error. */
class UnhandledPromiseRejection extends Error {
  readonly code = "ERR_UNHANDLED_REJECTION";
  constructor(reason: unknown) {
    super(
      "This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise " +
        `which was not handled with .catch(). The promise rejected with the reason "${describe(reason)}".`,
    );
    this.name = "UnhandledPromiseRejection";
  }
}

function isErrorLike(value: unknown): value is { stack: unknown } {
  return typeof value === "object" && value !== null && Object.hasOwn(value, "stack");
}

function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
