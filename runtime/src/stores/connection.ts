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
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return "(an invalid URL)";
  }
}

/** The warning a failed --sql-preconnect / --kvstore-preconnect prints: one line, no secrets. */
export function warnPreconnect(flag: string, what: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`warning: --${flag}: could not connect to ${what}: ${message}\n`);
}

export function storeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}
