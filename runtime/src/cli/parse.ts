// argv → flag values, command, target and program arguments, driven by the flag table.
import { COMMANDS, FLAGS, READY_OWNERS, flagByName, flagByShort, type CommandName, type FlagSpec } from "./flags.js";
import { UsageError } from "../errors.js";
import { closestMatches } from "../text.js";

export type FlagValue = string | number | boolean | string[];
export type FlagValues = Record<string, FlagValue | undefined>;

export interface ParsedArgs {
  /** Flag values by long name; list flags are arrays, absent flags are undefined. */
  readonly values: FlagValues;
  /** Long names of the flags the user gave, in order. */
  readonly given: readonly string[];
  readonly command?: CommandName;
  /** File, script or `-` (stdin); undefined for --eval/--print. */
  readonly target?: string;
  /** Everything after the target, untouched: the program's process.argv tail. */
  readonly args: readonly string[];
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const values: FlagValues = {};
  const given: string[] = [];
  let command: CommandName | undefined;
  let i = 0;

  const set = (flag: FlagSpec, raw: string | true, shown: string): void => {
    const value = convert(flag, raw, shown);
    given.push(flag.name);
    if (flag.type === "list") {
      const name = flag.aliasOf ?? flag.name;
      const list = (values[name] as string[] | undefined) ?? [];
      list.push(value as string);
      values[name] = list;
    } else {
      values[flag.name] = value;
    }
    for (const [name, implied] of Object.entries(flag.implies ?? {})) values[name] = implied;
  };

  const takeValue = (flag: FlagSpec, shown: string): string => {
    const next = argv[i + 1];
    if (next === undefined) throw new UsageError(`${shown} needs a value${describeValues(flag)}`);
    i++;
    return next;
  };

  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      // With --filter/--workspaces a name is a script (`rt --filter '*' build`), never another command.
      const selectsPackages = "filter" in values || "workspaces" in values;
      if (command === undefined && !("eval" in values || "print" in values) && Object.hasOwn(COMMANDS, arg) && (arg === "run" || !selectsPackages)) {
        command = arg as CommandName;
        continue;
      }
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq === -1 ? undefined : eq);
      const flag = flagByName(name);
      if (!flag || flag.name.length === 1) throw unknownFlag(`--${name}`);
      if (eq !== -1) set(flag, arg.slice(eq + 1), `--${name}`);
      else if (flag.type === "boolean" || flag.optionalValue) set(flag, true, `--${name}`);
      else set(flag, takeValue(flag, `--${name}`), `--${name}`);
      continue;
    }
    // One or more short flags: -hv, -e <code>, -r./setup.ts
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      const flag = flagByShort(letter);
      if (!flag) throw unknownFlag(`-${letter}`);
      if (flag.type === "boolean") {
        set(flag, true, `-${letter}`);
        continue;
      }
      const rest = arg.slice(j + 1).replace(/^=/, "");
      set(flag, rest !== "" ? rest : takeValue(flag, `-${letter}`), `-${letter}`);
      break;
    }
  }

  const positional = argv.slice(i);
  const evaluates = values.eval !== undefined || values.print !== undefined;
  return {
    values,
    given,
    command,
    target: evaluates ? undefined : positional[0],
    args: evaluates ? positional : positional.slice(1),
  };
}

/** Flags and commands whose feature has not landed yet are refused, never silently ignored. */
export function assertSupported(parsed: ParsedArgs): void {
  for (const name of parsed.given) {
    const flag = flagByName(name)!;
    if (!READY_OWNERS.has(flag.owner)) throw new UsageError(`${display(flag)} is not supported yet`);
  }
  if (parsed.command && !READY_OWNERS.has(COMMANDS[parsed.command].owner)) {
    throw new UsageError(`"rt ${parsed.command}" is not supported yet`);
  }
}

export function display(flag: FlagSpec): string {
  return flag.name.length === 1 ? `-${flag.name}` : `--${flag.name}`;
}

function convert(flag: FlagSpec, raw: string | true, shown: string): FlagValue {
  switch (flag.type) {
    case "boolean":
      if (raw === true || raw === "true") return true;
      if (raw === "false") return false;
      throw new UsageError(`${shown} takes no value (got "${raw}")`);
    case "number": {
      if (raw === true || !/^-?\d+$/.test(raw)) {
        throw new UsageError(`invalid value "${raw === true ? "" : raw}" for ${shown}: expected a whole number${minText(flag)}`);
      }
      const n = Number(raw);
      if (flag.min !== undefined && n < flag.min) {
        throw new UsageError(`invalid value "${raw}" for ${shown}: expected a whole number${minText(flag)}`);
      }
      return n;
    }
    case "string":
    case "list": {
      const value = raw === true ? "" : raw;
      if (flag.values && !flag.values.includes(value)) {
        throw new UsageError(`invalid value "${value}" for ${shown}${describeValues(flag)}`);
      }
      return value;
    }
  }
}

function minText(flag: FlagSpec): string {
  return flag.min === undefined ? "" : ` >= ${flag.min}`;
}

function describeValues(flag: FlagSpec): string {
  if (flag.values) return `; valid values: ${flag.values.join(", ")}`;
  return flag.valueName ? ` (${flag.valueName})` : "";
}

export function unknownFlag(shown: string): UsageError {
  const candidates = FLAGS.filter((f) => f.name.length > 1).map((f) => `--${f.name}`);
  const best = closestMatches(shown, candidates)[0];
  const hint = best ? ` Did you mean ${best}?` : "";
  return new UsageError(`unknown flag ${shown}.${hint} Run "rt --help" to see every flag.`);
}
