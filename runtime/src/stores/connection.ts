// Shared by rt.sql and rt.redis. Database sockets are unreferenced, so an idle connection never keeps a finished program
// alive (a plain postgres or node-redis client does, until it is closed). While a query or
// command is in flight, one referenced timer keeps the event loop alive instead.
export class KeepAlive {
  private pending = 0;
  private timer: NodeJS.Timeout | undefined;

  /** Holds the event loop until `work` settles; returns `work`. */
  track<T>(work: PromiseLike<T>): PromiseLike<T> {
    if (this.pending++ === 0) this.timer = setInterval(() => {}, 2 ** 31 - 1);
    const settled = () => {
      if (--this.pending === 0) clearInterval(this.timer);
    };
    // Promise.prototype.then: observes `work` without running a lazy query (postgres' own
    // `then` would execute it) and without creating a rejection of its own.
    Promise.prototype.then.call(work, settled, settled);
    return work;
  }
}

/** The URL without its password, for messages: a password never appears in rt's output. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return "(an invalid URL)";
  }
}

/**
 * --sql-preconnect / --kvstore-preconnect: a failure prints one warning (the URL without its
 * password) and is kept for the first query or command, which rejects with it.
 */
export class Preconnect {
  private failure: Error | undefined;
  /** A query made while the connection was still being opened waits for it and gets its error itself. */
  private queried = false;

  constructor(
    private readonly flag: string,
    private readonly what: string,
  ) {}

  start(connect: () => PromiseLike<unknown>, url: () => string | undefined): void {
    let connecting: PromiseLike<unknown>;
    try {
      connecting = connect();
    } catch (error) {
      this.warn(this.what, error);
      return;
    }
    connecting.then(
      () => {},
      (error: Error) => {
        if (!this.queried) this.failure = error;
        this.warn(`${this.what} at ${redactedUrl(url()!)}`, error);
      },
    );
  }

  /** Called for each query: the failure, once; later queries connect again. */
  take(): Error | undefined {
    this.queried = true;
    const failure = this.failure;
    this.failure = undefined;
    return failure;
  }

  private warn(what: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`warning: --${this.flag}: could not connect to ${what}: ${message}\n`);
  }
}

export function storeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}
