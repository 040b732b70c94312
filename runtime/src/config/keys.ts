// rtfig.toml's keys, derived from the flag table: every flag rtfig.toml can hold a default for
// is a top-level key (or a key of the `[run]` table), spelled in kebab-case or camelCase.
import { configTableOf, FLAGS, type ConfigTable, type FlagSpec } from "../flags/table.js";

export type { ConfigTable };

/** `console-depth` and `consoleDepth`. */
export function configNames(flag: FlagSpec): string[] {
  const camel = flag.name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return camel === flag.name ? [flag.name] : [flag.name, camel];
}

/** `table.key` → flag; built when a config file is first read. */
let keys: Map<string, FlagSpec> | undefined;

function allKeys(): Map<string, FlagSpec> {
  if (!keys) {
    keys = new Map();
    for (const flag of FLAGS) {
      const table = configTableOf(flag);
      if (table !== undefined) for (const name of configNames(flag)) keys.set(`${table}.${name}`, flag);
    }
  }
  return keys;
}

/** The flag a key of `table` sets. */
export function flagForKey(table: ConfigTable, key: string): FlagSpec | undefined {
  return allKeys().get(`${table}.${key}`);
}

/** Every key of `table`, for suggestions. */
export function keysOf(table: ConfigTable): string[] {
  const prefix = `${table}.`;
  return [...allKeys().keys()].filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
}
