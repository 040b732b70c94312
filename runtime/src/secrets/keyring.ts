// Loading @napi-rs/keyring, in the thread or process that talks to the store: never in the
// program's own thread, and only once secrets are used (it is external to rt's bundles).
import type { StoreFailure } from "./errors.js";

export type Keyring = typeof import("@napi-rs/keyring");

export function loadKeyring(): Keyring | StoreFailure {
  try {
    return require("@napi-rs/keyring") as Keyring;
  } catch (error) {
    // e.g. no prebuilt binary for this platform: the first line names the missing package.
    return { code: "ERR_SECRETS_UNAVAILABLE", detail: (error as Error).message.split("\n")[0] };
  }
}

export function isFailure(loaded: Keyring | StoreFailure): loaded is StoreFailure {
  return "code" in loaded;
}
