// `rt secrets list`'s worker process (dist/secrets-list.cjs): prints the account names stored
// for a service as JSON. A process of its own because listing (@napi-rs/keyring's
// findCredentials, over zbus) has no timeout: against a frozen daemon it waits forever, and a
// native call that never returns keeps even process.exit() from finishing. The caller kills
// this process instead. The values the module returns alongside the names never leave it.
import { classifyStoreError, type StoreFailure } from "./errors.js";
import { isFailure, loadKeyring } from "./keyring.js";

export type ListOutput = { readonly names: readonly string[] } | { readonly failure: StoreFailure };

function print(output: ListOutput): void {
  process.stdout.write(JSON.stringify(output));
}

const service = process.argv[2]!;
const keyring = loadKeyring();
if (isFailure(keyring)) print({ failure: keyring });
else {
  keyring.findCredentialsAsync(service).then(
    (credentials) => print({ names: credentials.map((credential) => credential.account) }),
    (error: unknown) => print({ failure: classifyStoreError(error) }),
  );
}
