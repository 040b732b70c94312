// The secrets module is a file of its own (dist/secrets.cjs), loaded when a program first calls
// rt.secrets or runs `rt secrets`, so rt's startup bundle carries none of it.
import * as path from "node:path";
import type { Secrets } from "rt-runtime/types/rt";

export type SecretsModule = typeof import("./index.js");

export function loadSecrets(): SecretsModule {
  return require(path.join(__dirname, "secrets.cjs")) as SecretsModule;
}

/**
 * rt.secrets: methods that load the module on their first call. Reading the member loads
 * nothing, because `import { version } from "rt"` reads every member of the namespace.
 */
export function lazySecrets(): Secrets {
  let loaded: Secrets | undefined;
  const method =
    (name: keyof Secrets) =>
    (...args: unknown[]): unknown => {
      loaded ??= loadSecrets().secrets;
      return (loaded[name] as (...args: unknown[]) => unknown)(...args);
    };
  return Object.freeze({ get: method("get"), set: method("set"), delete: method("delete") }) as unknown as Secrets;
}
