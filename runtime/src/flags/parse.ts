// argv → flag values, command, target and program arguments, driven by the flag table.
import { COMMANDS, FLAGS, commandTakes, commandsTaking, flagByName, flagByShort, type CommandName, type FlagSpec, type FlagValues } from "./table.js";
import { UsageError } from "../errors.js";
import { closestMatches } from "../text.js";

export type { FlagValues } from "./table.js";
export type FlagValue = string | number | boolean | string[];

/**
 * The value of a flag named at run time (a table row, an rtfig.toml key). Code that names its
 * flag reads `values.port` and gets the table's type; this is the one untyped door.
 */
export function flagValue(values: FlagValues, name: string): FlagValue | undefined {
  const untyped: Readonly<Record<string, FlagValue | undefined>> = values;
  return untyped[name];
}

/** Sets a flag named at run time; the value was converted by its row (convertFlagValue, rtfig.toml). */
export function setFlagValue(values: FlagValues, name: string, value: FlagValue): void {
  const untyped: Record<string, FlagValue | undefined> = values;
  untyped[name] = value;
}

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
  // `rt build` and `rt secrets` have no program to hand arguments to: flags may follow their entries.
  const entries: string[] = [];
  let positional = argv.length;

  const set = (flag: FlagSpec, raw: string | true, shown: string): void => {
    const value = convertFlagValue(flag, raw, shown);
    const target = flag.aliasOf ?? flag.name;
    // Which of two values was meant is a guess: refuse rather than let the last one win (an alias's too).
    const again = given.some((other) => (flagByName(other)!.aliasOf ?? other) === target);
    if (flag.type !== "list" && flag.type !== "boolean" && again) throw new UsageError(`${shown} is given more than once; it takes one value`);
    given.push(flag.name);
    const before = flagValue(values, target);
    setFlagValue(values, target, flag.type === "list" ? [...(Array.isArray(before) ? before : []), String(value)] : value);
    for (const [name, implied] of Object.entries(flag.implies ?? {})) setFlagValue(values, name, implied);
  };

  for (const arg of scanArgs(argv)) {
    if (arg.kind === "command") command = arg.command;
    else if (arg.kind === "entry") entries.push(argv[arg.index]!);
    else if (arg.kind === "rest") positional = arg.index;
    else if (!arg.flag) throw unknownFlag(arg.shown);
    else if (arg.value === undefined) throw new UsageError(`${arg.shown} needs a value${describeValues(arg.flag)}`);
    else set(arg.flag, arg.value, arg.shown);
  }

  const rest = [...entries, ...argv.slice(positional)];
  const evaluates = values.eval !== undefined || values.print !== undefined;
  return {
    values,
    given,
    command,
    target: evaluates ? undefined : rest[0],
    args: evaluates ? rest : rest.slice(1),
  };
}

/** One piece of rt's own arguments, by the index of the argument it is in. */
export type ScannedArg =
  /** A flag; `flag` is undefined for an unknown one, `value` for a missing value (`valueIndex`: the argument holding it, if separate). */
  | {
      readonly kind: "flag";
      readonly index: number;
      readonly shown: string;
      readonly flag?: FlagSpec;
      readonly value?: string | true;
      readonly valueIndex?: number;
    }
  | { readonly kind: "command"; readonly index: number; readonly command: CommandName }
  /** An entry of `rt build` or an argument of `rt secrets`, which read flags after them too. */
  | { readonly kind: "entry"; readonly index: number }
  /** Where the target and the program's arguments start (argv.length when there are none); always last. */
  | { readonly kind: "rest"; readonly index: number };

/**
 * rt's arguments as the parser reads them, without judging them: each flag with its value, the
 * built-in command, where the rest starts. It goes on past an unknown flag, so the language
 * server can underline every one in a script's `rt ...` command.
 */
export function* scanArgs(argv: readonly string[]): Generator<ScannedArg> {
  const seen = new Set<string>();
  let command: CommandName | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      yield { kind: "rest", index: i + 1 };
      return;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      // With --filter/--workspaces a name is a script (`rt --filter '*' build`), never another command.
      const selectsPackages = seen.has("filter") || seen.has("workspaces");
      if (command === undefined && !seen.has("eval") && !seen.has("print") && Object.hasOwn(COMMANDS, arg) && (arg === "run" || !selectsPackages)) {
        command = arg as CommandName;
        yield { kind: "command", index: i, command };
        continue;
      }
      if (command !== undefined && !COMMANDS[command].runsProgram) {
        yield { kind: "entry", index: i };
        continue;
      }
      yield { kind: "rest", index: i };
      return;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const shown = arg.slice(0, eq === -1 ? undefined : eq);
      const found = flagByName(shown.slice(2));
      const flag = found && found.name.length > 1 ? found : undefined;
      if (flag) seen.add(flag.name);
      if (!flag || eq !== -1 || flag.type === "boolean" || flag.optionalValue) {
        yield { kind: "flag", index: i, shown, flag, value: eq === -1 ? true : arg.slice(eq + 1) };
      } else {
        yield { kind: "flag", index: i, shown, flag, value: argv[i + 1], valueIndex: i + 1 };
        i++;
      }
      continue;
    }
    // One or more short flags: -hv, -e <code>, -r./setup.ts
    for (let j = 1; j < arg.length; j++) {
      const shown = `-${arg[j]}`;
      const flag = flagByShort(arg[j]!);
      if (flag) seen.add(flag.name);
      if (!flag || flag.type === "boolean") {
        yield { kind: "flag", index: i, shown, flag, value: true };
        continue;
      }
      const rest = arg.slice(j + 1).replace(/^=/, "");
      if (rest !== "") yield { kind: "flag", index: i, shown, flag, value: rest };
      else {
        yield { kind: "flag", index: i, shown, flag, value: argv[i + 1], valueIndex: i + 1 };
        i++;
      }
      break;
    }
  }
  yield { kind: "rest", index: argv.length };
}

/** A flag the command does not take (e.g. rt build's --outdir on a run) is refused, never ignored. */
export function assertFlagsFitCommand(parsed: ParsedArgs): void {
  for (const name of parsed.given) {
    const flag = flagByName(name)!;
    if (commandTakes(parsed.command, flag)) continue;
    if (commandTakes("run", flag)) throw new UsageError(`${display(flag)} does not apply to rt ${parsed.command} (it is a flag for running programs)`);
    const owner = commandsTaking(flag)[0];
    throw new UsageError(`${display(flag)} is a flag of "rt ${owner}": rt ${owner} ${display(flag)} ...`);
  }
}

export function display(flag: FlagSpec): string {
  return flag.name.length === 1 ? `-${flag.name}` : `--${flag.name}`;
}

/** A flag's value from the command line, checked against the flag's type and values. */
export function convertFlagValue(flag: FlagSpec, raw: string | true, shown: string): FlagValue {
  switch (flag.type) {
    case "boolean":
      if (raw === true || raw === "true") return true;
      if (raw === "false") return false;
      throw new UsageError(`${shown} takes no value (got "${raw}")`);
    case "number": {
      if (raw === true || !/^-?\d+$/.test(raw)) {
        throw new UsageError(`invalid value "${raw === true ? "" : raw}" for ${shown}: expected a whole number${rangeText(flag)}`);
      }
      const n = Number(raw);
      if ((flag.min !== undefined && n < flag.min) || (flag.max !== undefined && n > flag.max)) {
        throw new UsageError(`invalid value "${raw}" for ${shown}: expected a whole number${rangeText(flag)}`);
      }
      return n;
    }
    case "string":
    case "list": {
      // An optional value left out means the default (`--sourcemap` is `--sourcemap=linked`).
      const value = raw === true ? String(flag.default ?? "") : raw;
      if (flag.values && !flag.values.includes(value)) {
        throw new UsageError(`invalid value "${value}" for ${shown}${describeValues(flag)}`);
      }
      return value;
    }
  }
}

function rangeText(flag: FlagSpec): string {
  if (flag.max !== undefined) return ` from ${flag.min ?? 0} to ${flag.max}`;
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
