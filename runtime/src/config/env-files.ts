// Environment files. Without --env-file, rt loads from the working directory, as Bun does:
// `.env`, then `.env.$NODE_ENV` (`.env.development` when NODE_ENV is unset), then `.env.local`
// (skipped when NODE_ENV is `test`, so tests see the same values everywhere); --no-env-file turns
// that off. --env-file (repeatable) loads exactly the files it names instead. Later files win over
// earlier ones, and the real environment wins over every file. Parsed by Node's util.parseEnv.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import * as path from "node:path";
import { parseEnv } from "node:util";
import type { FlagValues } from "../flags/parse.js";
import { unreadableReason, withoutBom } from "../data-files.js";
import { UsageError } from "../errors.js";
import { reportWatched } from "../watch/report.js";

/** No real env file comes near this: a bigger one (`--env-file /dev/zero`) is a mistake. */
export const MAX_ENV_FILE_BYTES = 10 * 1024 * 1024;

export function loadEnvFiles(values: FlagValues): void {
  const explicit = values["env-file"];
  if (!explicit && values["no-env-file"] === true) return;
  const nodeEnv = process.env.NODE_ENV || "development";
  const candidates = explicit ?? [".env", `.env.${nodeEnv}`, ...(nodeEnv === "test" ? [] : [".env.local"])];
  const fromFiles: Record<string, string> = {};
  for (const name of candidates) {
    const file = path.resolve(name);
    reportWatched(file);
    const text = readEnvFile(file, name, explicit !== undefined);
    if (text === undefined) {
      if (explicit) throw new UsageError(`--env-file: no such file: ${name}`);
      continue;
    }
    Object.assign(fromFiles, parseEnv(text));
  }
  // Each read or write of process.env scans the whole environment (getenv/setenv): asking
  // process.env whether each name is set made 25,000 variables take seconds. One snapshot of
  // the names, and only the writes remain.
  const present = new Set(Object.keys(process.env));
  for (const [name, value] of Object.entries(fromFiles)) {
    if (!present.has(name)) process.env[name] = value;
  }
}

/**
 * An env file's text, or undefined when an automatic one is not there or not a regular file.
 * Automatic files are opened without blocking and skipped unless regular, as Bun does: a FIFO
 * with no writer (1Password mounts `.env` so) would otherwise hang every rt in the directory, and
 * a directory named .env is often a Python virtualenv. A file named by --env-file is read whatever
 * it is, so `--env-file <(op inject -i .env.tpl)` works; a directory there is a mistake.
 */
function readEnvFile(file: string, name: string, explicit: boolean): string | undefined {
  const fail = (reason: string) => new UsageError(`${explicit ? "--env-file " : ""}${name}: ${reason}`);
  let fd: number;
  try {
    // O_NONBLOCK is not defined on Windows, which has no FIFOs to hang on.
    fd = openSync(file, explicit ? constants.O_RDONLY : constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENXIO: a Unix socket, which cannot be opened.
    if (code === "ENOENT" || code === "ENOTDIR" || (!explicit && (code === "ENXIO" || code === "EISDIR"))) return undefined;
    throw fail(unreadableReason(error));
  }
  try {
    const stat = fstatSync(fd);
    if (!explicit && !stat.isFile()) return undefined;
    if (stat.size > MAX_ENV_FILE_BYTES) throw tooLarge(fail);
    return withoutBom(readAtMost(fd, MAX_ENV_FILE_BYTES, fail).toString("utf8"));
  } catch (error) {
    // Reading a directory fails with EISDIR.
    throw error instanceof UsageError ? error : fail(unreadableReason(error));
  } finally {
    closeSync(fd);
  }
}

/** All of `fd` up to EOF (a pipe has no size to ask for first), failing past `limit` bytes. */
function readAtMost(fd: number, limit: number, fail: (reason: string) => Error): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) return Buffer.concat(chunks, total);
    total += read;
    if (total > limit) throw tooLarge(fail);
    chunks.push(chunk.subarray(0, read));
  }
}

function tooLarge(fail: (reason: string) => Error): Error {
  return fail(`is larger than ${MAX_ENV_FILE_BYTES / 1024 / 1024} MiB, more than any env file needs: is it the right file?`);
}
