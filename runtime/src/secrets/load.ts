// The secrets module is a file of its own (dist/secrets.cjs), loaded when a program or the
// `rt secrets` command first uses it, so rt's startup bundle carries none of it.
import * as path from "node:path";

export type SecretsModule = typeof import("./index.js");

export function loadSecrets(): SecretsModule {
  return require(path.join(__dirname, "secrets.cjs")) as SecretsModule;
}
