// rtfig.toml: defaults for the flag table, merged under the command line. Found at `--config
// <file>` or `<cwd>/rtfig.toml`; without either nothing is read or loaded but one failed open.
// Unknown keys are warnings naming file:line:col;
// a value of the wrong type and a TOML syntax error are errors (exit 2).
import * as path from "node:path";
import { flagByName, type FlagSpec } from "../flags/table.js";
import { display, flagValue, setFlagValue, type FlagValue, type FlagValues } from "../flags/parse.js";
import { readProjectFile } from "../data-files.js";
import { UsageError } from "../errors.js";
import { codeFrame } from "../text.js";
import { closestMatches, displayPath } from "../text.js";
import { reportWatched } from "../watch/report.js";
import { flagForKey, keysOf, type ConfigTable } from "./keys.js";

/** `values` (the command line) over the defaults of the config file, if there is one. */
export function withConfig(values: FlagValues): FlagValues {
  const explicit = values.config;
  const file = path.resolve(explicit ?? "rtfig.toml");
  reportWatched(file);
  const shown = explicit === undefined ? displayPath(file) : `--config ${explicit}`;
  const text = readProjectFile(file, (reason) => new UsageError(`${shown}: ${reason}`));
  if (text === undefined) {
    if (explicit !== undefined) throw new UsageError(`--config: no such file: ${explicit}`);
    return values;
  }
  const defaults = readConfig(file, text);
  const merged: FlagValues = { ...defaults };
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const base = flagValue(merged, name);
    // Lists add up (the command line's entries last, so they win for the same key); others replace.
    setFlagValue(merged, name, Array.isArray(base) && Array.isArray(value) ? [...base, ...value] : value);
  }
  return merged;
}

type TomlTable = Record<string, unknown>;

function readConfig(file: string, text: string): FlagValues {
  const where = new KeyLocator(displayPath(file), text);
  // Loaded on demand: most projects have no rtfig.toml.
  const toml = require("smol-toml") as typeof import("smol-toml");
  let document: TomlTable;
  try {
    document = toml.parse(text) as TomlTable;
  } catch (error) {
    const { line, column, message } = error as { line: number; column: number; message: string };
    const summary = message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
    throw new UsageError(codeFrame(`${where.file}:${line}:${column}`, `invalid TOML: ${summary}`, text.split(/\r?\n/)[line - 1] ?? "", column).trimEnd());
  }
  const values: FlagValues = {};
  const origins = new Map<string, string>();
  const readTable = (table: ConfigTable, entries: TomlTable): void => {
    for (const [key, value] of Object.entries(entries)) {
      if (table === "" && key === "run" && isTable(value)) {
        readTable("run", value);
        continue;
      }
      const flag = flagForKey(table, key);
      const at = where.find(table, key);
      if (!flag) {
        const commandLineOnly = flagByName(key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`));
        if (commandLineOnly)
          warn(`${at}: "${qualified(table, key)}" (${display(commandLineOnly)}) applies to one invocation: give it on the command line; ignored`);
        else warn(`${at}: unknown key "${qualified(table, key)}"${suggestion(table, key)}; ignored`);
        continue;
      }
      const name = flag.aliasOf ?? flag.name;
      const converted = convert(flag, value, `${at}: invalid value for "${qualified(table, key)}"`);
      if (origins.has(flag.name))
        throw new UsageError(`${at}: "${qualified(table, key)}" sets ${display(flag)} again (already set by "${origins.get(flag.name)}")`);
      origins.set(flag.name, qualified(table, key));
      const before = flagValue(values, name);
      setFlagValue(values, name, Array.isArray(before) && Array.isArray(converted) ? [...before, ...converted] : converted);
    }
  };
  readTable("", document);
  return values;
}

function convert(flag: FlagSpec, value: unknown, problem: string): FlagValue {
  const invalid = (expected: string) => new UsageError(`${problem}: expected ${expected}, got ${describe(value)}`);
  switch (flag.type) {
    case "boolean":
      if (typeof value !== "boolean") throw invalid("true or false");
      return value;
    case "number": {
      const min = flag.min === undefined ? "" : ` >= ${flag.min}`;
      if (typeof value !== "number" || !Number.isInteger(value) || (flag.min !== undefined && value < flag.min)) throw invalid(`a whole number${min}`);
      return value;
    }
    case "string":
      if (typeof value !== "string" || (flag.values && !flag.values.includes(value)))
        throw invalid(flag.values ? `one of ${flag.values.join(", ")}` : "a string");
      return value;
    case "list": {
      const table = flag.keyed && isTable(value) ? Object.entries(value) : undefined;
      if (table) {
        const allowed = flag.keyed!.values;
        for (const [key, entry] of table) {
          if (typeof entry !== "string" || (allowed && !allowed.includes(entry))) {
            throw new UsageError(`${problem}: the value of "${key}" must be ${allowed ? `one of ${allowed.join(", ")}` : "a string"}, got ${describe(entry)}`);
          }
        }
        return table.map(([key, entry]) => `${key}:${entry as string}`);
      }
      const list = typeof value === "string" ? [value] : value;
      const ok = Array.isArray(list) && list.every((item) => typeof item === "string" && (!flag.values || flag.values.includes(item)));
      if (!ok) {
        const item = flag.values ? `one of ${flag.values.join(", ")}` : "a string";
        throw invalid(`${item}, or an array of them${flag.keyed ? ", or a table" : ""}`);
      }
      return [...(list as string[])];
    }
  }
}

function isTable(value: unknown): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (isTable(value)) return "a table";
  return JSON.stringify(value) ?? String(value);
}

function qualified(table: ConfigTable, key: string): string {
  return table ? `${table}.${key}` : key;
}

function suggestion(table: ConfigTable, key: string): string {
  const [best] = closestMatches(key, keysOf(table));
  return best ? ` (did you mean "${qualified(table, best)}"?)` : "";
}

function warn(message: string): void {
  process.stderr.write(`rt: warning: ${message}\n`);
}

/**
 * Where a key is written: smol-toml gives values, not positions, so the text is scanned for the
 * key's line under its table header (`[run]`, or `run.shell = ...` at the top level).
 */
class KeyLocator {
  private readonly lines: string[];
  constructor(
    readonly file: string,
    text: string,
  ) {
    this.lines = text.split(/\r?\n/);
  }

  find(table: ConfigTable, key: string): string {
    let current = "";
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const keyPattern = new RegExp(`^(\\s*)(?:${table ? `${table}\\s*\\.\\s*` : ""})?(?:"${escaped}"|'${escaped}'|${escaped})\\s*=`);
    for (let i = 0; i < this.lines.length; i++) {
      const line = this.lines[i]!;
      const header = /^\s*\[\s*([^\]]*?)\s*\]/.exec(line);
      if (header) {
        current = header[1]!;
        if (current === key && table === "") return `${this.file}:${i + 1}:${line.indexOf("[") + 1}`;
        continue;
      }
      const match = keyPattern.exec(line);
      const dotted = table !== "" && current === "" && match && /\./.test(line.split("=")[0]!);
      if (match && (current === table || dotted)) return `${this.file}:${i + 1}:${match[1]!.length + 1}`;
    }
    return `${this.file}:1:1`;
  }
}
