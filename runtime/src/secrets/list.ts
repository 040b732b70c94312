// The account names stored for a service (`rt secrets list`), read by a short-lived process
// (list-process.ts) that is killed if the store does not answer: listing has no timeout of its own.
import * as path from "node:path";
import { checkPart } from "./arguments.js";
import { storeError, type StoreFailure } from "./errors.js";
import type { ListOutput } from "./list-process.js";
import { DEADLINE_MS } from "./store.js";

export async function listNames(service: unknown): Promise<string[]> {
  const checked = checkPart("service", service);
  const output = await new Promise<ListOutput>((resolve) => {
    const script = path.join(__dirname, "secrets-list.cjs");
    // ELECTRON_RUN_AS_NODE: inside an Electron host (the VS Code extension) execPath is Electron.
    const options = { timeout: DEADLINE_MS, killSignal: "SIGKILL" as const, env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" } };
    // Required here: node:child_process costs ~3 ms to load, and only listing needs it.
    const { execFile } = require("node:child_process") as typeof import("node:child_process");
    execFile(process.execPath, [script, checked], options, (error, stdout) => {
      if (error?.killed) resolve({ failure: { code: "ERR_SECRETS_TIMEOUT" } });
      else resolve(parseOutput(stdout) ?? { failure: { code: "ERR_SECRETS_PLATFORM_ERROR", detail: `listing failed: ${error?.message ?? "no output"}` } });
    });
  });
  if ("failure" in output) throw storeError(output.failure satisfies StoreFailure);
  return [...output.names].sort();
}

function parseOutput(stdout: string): ListOutput | undefined {
  try {
    return JSON.parse(stdout) as ListOutput;
  } catch {
    return undefined;
  }
}
