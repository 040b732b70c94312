// rt.secrets: credentials in the operating system's credential store (macOS keychain, the
// Secret Service on Linux, Windows Credential Manager) through @napi-rs/keyring. Built as
// dist/secrets.cjs: the `rt` namespace loads it on first use, and `require("rt-runtime/secrets")`
// works in plain Node too. Values travel as UTF-8 bytes in buffers rt allocates, and rt zeroes
// each of them once it is done; the only copy rt leaves is the string a get returns.
import type { Secrets } from "rt-runtime/types/rt";
import { readPair, readSetArguments } from "./arguments.js";
import { storeError } from "./errors.js";
import { request } from "./store.js";

// The declarations users see (types/rt.d.ts) are the one definition of the API's shape.
export type { Secrets, SecretsOptions } from "rt-runtime/types/rt";
export { checkPart, MAX_NAME_LENGTH, MAX_VALUE_BYTES, readPair } from "./arguments.js";
export { STORE_ERRORS, type SecretsError, type StoreErrorCode } from "./errors.js";
export { listNames } from "./list.js";

// fatal: a stored value that is not UTF-8 is an error, not replacement characters;
// ignoreBOM: a leading U+FEFF is part of the value.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

// Errors are made after the await, so their stack runs through the caller's own frames.
async function get(first: unknown, second?: unknown): Promise<string | null> {
  const { service, name } = readPair("get", first, second);
  const { result, failure } = await request({ op: "get", service, name });
  if (failure) throw storeError(failure);
  if (!(result instanceof Uint8Array)) return null;
  try {
    return decoder.decode(result);
  } catch {
    throw storeError({ code: "ERR_SECRETS_NOT_TEXT" });
  } finally {
    result.fill(0);
  }
}

async function set(first: unknown, second?: unknown, third?: unknown): Promise<void> {
  const { service, name, value, bytes } = readSetArguments(first, second, third);
  const encoded = new Uint8Array(bytes);
  encoder.encodeInto(value, encoded);
  // Transferred: the store thread zeroes it once the store has its copy.
  const { failure } = await request({ op: "set", service, name, value: encoded });
  if (failure) throw storeError(failure);
}

async function remove(first: unknown, second?: unknown): Promise<boolean> {
  const { service, name } = readPair("delete", first, second);
  const { result, failure } = await request({ op: "delete", service, name });
  if (failure) throw storeError(failure);
  return result === true;
}

export const secrets: Secrets = Object.freeze({ get, set, delete: remove });
