// A bounded wait: every request, launch step and reconnect gives up with a message instead of hanging.
export function withTimeout<T>(promise: Promise<T>, ms: number, message = `no answer within ${ms} ms`): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
