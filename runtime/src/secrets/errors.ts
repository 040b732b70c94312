// The errors of rt.secrets: a stable `code` per cause and a message that says what is missing
// and how to fix it. The store's own messages are matched here (in the thread that talks to it)
// and replaced; none of them carries a secret, and no message rt writes ever includes a value.

export const STORE_ERRORS = {
  ERR_SECRETS_NO_BUS:
    "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset or its socket is gone): run inside a desktop session, or start a bus with `dbus-run-session -- <command>`",
  ERR_SECRETS_NO_SERVICE: "no Secret Service running on the session bus: start gnome-keyring-daemon or KeePassXC's secret service",
  ERR_SECRETS_LOCKED:
    "the keyring is locked and could not be unlocked: unlock your login keyring (log in to the desktop, or run `gnome-keyring-daemon --unlock`)",
  ERR_SECRETS_TIMEOUT: "the Secret Service did not answer in time: the keyring daemon (org.freedesktop.secrets) is not responding; restart it",
  ERR_SECRETS_UNAVAILABLE: "the credential store module (@napi-rs/keyring) could not be loaded on this platform",
  ERR_SECRETS_AMBIGUOUS:
    "more than one item in the keyring matches this service and name: remove the duplicates (Linux: `secret-tool clear service <service> username <name>`), then set the value again",
  ERR_SECRETS_NOT_TEXT: "the stored value is not UTF-8 text (it was stored by another program as binary data)",
  ERR_SECRETS_PLATFORM_ERROR: "the credential store failed",
} as const;
export type StoreErrorCode = keyof typeof STORE_ERRORS;

/** What the thread that talks to the store reports for a failed operation. */
export interface StoreFailure {
  readonly code: StoreErrorCode;
  /** Only for ERR_SECRETS_PLATFORM_ERROR: the platform's own message, for diagnosis. */
  readonly detail?: string;
}

/** Failures that every operation waiting behind the failed one would meet too. */
export const STORE_DOWN: ReadonlySet<StoreErrorCode> = new Set([
  "ERR_SECRETS_NO_BUS",
  "ERR_SECRETS_NO_SERVICE",
  "ERR_SECRETS_TIMEOUT",
  "ERR_SECRETS_UNAVAILABLE",
]);

// Messages of keyring-rs (libdbus for entries, zbus for listing) as measured against
// gnome-keyring; see the README's Secrets section for each situation.
const PATTERNS: readonly (readonly [RegExp, StoreErrorCode])[] = [
  [/autolaunch|DBUS_SESSION_BUS_ADDRESS|Failed to connect to (?:socket|address)|Connection refused/i, "ERR_SECRETS_NO_BUS"],
  [/org\.freedesktop\.secrets was not provided|ServiceUnknown/, "ERR_SECRETS_NO_SERVICE"],
  [/unlock prompt was dismissed|IsLocked|is locked|User interaction is not allowed/i, "ERR_SECRETS_LOCKED"],
  [/Did not receive a reply|timed? ?out/i, "ERR_SECRETS_TIMEOUT"],
  [/matched by \d+ credentials|ambiguous/i, "ERR_SECRETS_AMBIGUOUS"],
];

export function classifyStoreError(error: unknown): StoreFailure {
  const message = error instanceof Error ? error.message : String(error);
  for (const [pattern, code] of PATTERNS) if (pattern.test(message)) return { code };
  return { code: "ERR_SECRETS_PLATFORM_ERROR", detail: message };
}

export interface SecretsError extends Error {
  readonly code: StoreErrorCode;
}

export function storeError(failure: StoreFailure): SecretsError {
  const text = STORE_ERRORS[failure.code] + (failure.detail ? `: ${failure.detail}` : "");
  return Object.assign(new Error(text), { code: failure.code });
}

/** Argument mistakes: a TypeError with Node's codes, thrown before the store is touched. */
export function argumentError(code: "ERR_INVALID_ARG_TYPE" | "ERR_INVALID_ARG_VALUE", message: string): TypeError & { code: string } {
  return Object.assign(new TypeError(message), { code });
}
