// The call forms of rt.secrets and the checks every argument passes before the store is
// touched. Messages name the argument and what is wrong with it, never a value.
import type { SecretsOptions } from "rt-runtime/types/rt";
import { argumentError } from "./errors.js";

/** Longest service or name, in UTF-16 code units (String#length). */
export const MAX_NAME_LENGTH = 255;

/**
 * Largest value, in bytes of UTF-8. Windows' Credential Manager holds at most 2560 bytes
 * (CRED_MAX_CREDENTIAL_BLOB_SIZE); the Secret Service and the macOS keychain have no fixed limit,
 * and rt allows 1 MiB there (a 1 MiB value already takes ~0.2 s to store over D-Bus).
 */
export const MAX_VALUE_BYTES = process.platform === "win32" ? 2560 : 1024 * 1024;

/** A surrogate that is not half of a pair: such a string has no exact UTF-8 form. */
const LONE_SURROGATE = /\p{Cs}/u;

/** `(options)` or `(service, name)`. */
export function readPair(method: string, first: unknown, second: unknown): SecretsOptions {
  if (typeof first === "object" && first !== null) {
    const options = first as Partial<Record<keyof SecretsOptions, unknown>>;
    return { service: checkPart("service", options.service), name: checkPart("name", options.name) };
  }
  if (first === undefined)
    throw argumentError("ERR_INVALID_ARG_TYPE", `secrets.${method} needs an options object { service, name } or the arguments (service, name)`);
  return { service: checkPart("service", first), name: checkPart("name", second) };
}

/** `(options, value)`, `({ service, name, value })` or `(service, name, value)`; with the value's UTF-8 size. */
export function readSetArguments(first: unknown, second: unknown, third: unknown): SecretsOptions & { readonly value: string; readonly bytes: number } {
  const pair = readPair("set", first, second);
  let value = third;
  if (typeof first === "object" && first !== null) {
    const inOptions = (first as { value?: unknown }).value;
    if (inOptions !== undefined && second !== undefined)
      throw argumentError("ERR_INVALID_ARG_VALUE", "the value is given twice: in the options object and as the second argument");
    value = second !== undefined ? second : inOptions;
  }
  const bytes = checkValue(value);
  return { ...pair, value: value as string, bytes };
}

export function checkPart(label: "service" | "name", part: unknown): string {
  if (typeof part !== "string") throw argumentError("ERR_INVALID_ARG_TYPE", `${label} must be a string, got ${describe(part)}`);
  if (part === "") throw argumentError("ERR_INVALID_ARG_VALUE", `${label} must not be empty`);
  if (part.length > MAX_NAME_LENGTH)
    throw argumentError("ERR_INVALID_ARG_VALUE", `${label} is ${part.length} characters long; the limit is ${MAX_NAME_LENGTH}`);
  // The platform stores cut strings at a NUL: "a\0b" would silently be the entry "a".
  if (part.includes("\0")) throw argumentError("ERR_INVALID_ARG_VALUE", `${label} must not contain NUL characters (the credential store would cut it there)`);
  // A lone surrogate is also how `rt secrets` passes on command-line bytes that are not UTF-8
  // (exactArguments): either way the store would keep U+FFFD, so different names would collide.
  if (LONE_SURROGATE.test(part)) {
    throw argumentError(
      "ERR_INVALID_ARG_VALUE",
      `${label} is not valid UTF-8 text (it has bytes that are not UTF-8, or a lone surrogate), so the credential store would not keep it exactly: give the ${label} as UTF-8 text`,
    );
  }
  return part;
}

/** Returns the value's size in bytes of UTF-8. */
function checkValue(value: unknown): number {
  if (value === undefined || value === null) {
    throw argumentError("ERR_INVALID_ARG_TYPE", `value must be a string, got ${describe(value)}; to remove a secret, call secrets.delete({ service, name })`);
  }
  if (typeof value !== "string") throw argumentError("ERR_INVALID_ARG_TYPE", `value must be a string, got ${describe(value)}`);
  // Counted without encoding, so an oversized value is refused before any copy is made.
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > MAX_VALUE_BYTES) {
    throw argumentError("ERR_INVALID_ARG_VALUE", `value is ${bytes} bytes as UTF-8; the limit on ${process.platform} is ${MAX_VALUE_BYTES} bytes`);
  }
  if (LONE_SURROGATE.test(value))
    throw argumentError("ERR_INVALID_ARG_VALUE", "value is not well-formed Unicode (it has a lone surrogate), so it could not be stored exactly");
  return bytes;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
