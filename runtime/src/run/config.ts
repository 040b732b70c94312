// The script runner's defaults from the `[run]` table of rtfig.toml in the cwd: `shell`,
// `silent` and `rt`, checked against the flag table; the command line wins over the file.
// (The configuration module for every other key comes with --config; it will take this over.)
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { flagByName } from "../cli/flags.js";
import type { FlagValues } from "../cli/parse.js";
import { parseToml } from "../data-files.js";
import { ProgramError } from "../errors.js";
import { displayPath } from "../text.js";

const RUN_KEYS = ["shell", "silent", "rt"];

/** `values` with the `[run]` defaults of `<cwd>/rtfig.toml` filled in where the command line gave none. */
export function withRunConfig(values: FlagValues, cwd: string): FlagValues {
  const file = path.join(cwd, "rtfig.toml");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return values;
  }
  const run = (parseToml(file, text, "ERR_CONFIG") as Record<string, unknown>).run;
  if (run === undefined) return values;
  const where = (key: string) => `${displayPath(file)}${lineOf(text, key)}`;
  if (typeof run !== "object" || run === null || Array.isArray(run)) throw new ProgramError(`${where("run")}: [run] must be a table`, "ERR_CONFIG");
  const merged = { ...values };
  for (const [key, value] of Object.entries(run)) {
    if (!RUN_KEYS.includes(key)) throw new ProgramError(`${where(key)}: unknown key "${key}" in [run] (known: ${RUN_KEYS.join(", ")})`, "ERR_CONFIG");
    const flag = flagByName(key)!;
    const valid = flag.type === "boolean" ? typeof value === "boolean" : typeof value === "string" && (!flag.values || flag.values.includes(value));
    if (!valid) {
      const expected = flag.type === "boolean" ? "true or false" : flag.values!.map((v) => `"${v}"`).join(" or ");
      throw new ProgramError(`${where(key)}: [run] ${key} must be ${expected} (got ${JSON.stringify(value)})`, "ERR_CONFIG");
    }
    merged[key] ??= value as string | boolean;
  }
  return merged;
}

/** `:<line>` of `key = ...` in the [run] table (or of the table), for messages; "" if not found. */
function lineOf(text: string, key: string): string {
  const lines = text.split("\n");
  const table = lines.findIndex((line) => /^\s*\[run\]/.test(line));
  const entry = lines.findIndex((line, i) => i > table && line.trimStart().startsWith(key) && /^\s*=/.test(line.trimStart().slice(key.length)));
  const index = entry === -1 ? table : entry;
  return index === -1 ? "" : `:${index + 1}`;
}
