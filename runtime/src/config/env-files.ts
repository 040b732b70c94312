// Environment files. Without --env-file, rt loads from the working directory, as Bun does:
// `.env`, then `.env.$NODE_ENV` (`.env.development` when NODE_ENV is unset), then `.env.local`
// (skipped when NODE_ENV is `test`, so tests see the same values everywhere); --no-env-file turns
// that off. --env-file (repeatable) loads exactly the files it names instead. Later files win over
// earlier ones, and the real environment wins over every file. Parsed by Node's util.parseEnv.
import * as path from "node:path";
import { parseEnv } from "node:util";
import type { FlagValues } from "../flags/parse.js";
import { readProjectFile } from "../data-files.js";
import { UsageError } from "../errors.js";
import { reportWatched } from "../watch/report.js";

export function loadEnvFiles(values: FlagValues): void {
  const explicit = values["env-file"];
  if (!explicit && values["no-env-file"] === true) return;
  const nodeEnv = process.env.NODE_ENV || "development";
  const candidates = explicit ?? [".env", `.env.${nodeEnv}`, ...(nodeEnv === "test" ? [] : [".env.local"])];
  const fromFiles: Record<string, string> = {};
  for (const name of candidates) {
    const file = path.resolve(name);
    reportWatched(file);
    // A directory named .env is often a Python virtualenv: not rt's to read, and no mistake.
    const text = readProjectFile(file, (reason) => new UsageError(`${explicit ? "--env-file " : ""}${name}: ${reason}`), { skipDirectory: !explicit });
    if (text === undefined) {
      if (explicit) throw new UsageError(`--env-file: no such file: ${name}`);
      continue;
    }
    Object.assign(fromFiles, parseEnv(text));
  }
  for (const [name, value] of Object.entries(fromFiles)) {
    if (process.env[name] === undefined) process.env[name] = value;
  }
}
