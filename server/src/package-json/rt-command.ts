// The parts of an `rt ...` command inside a script, classified the way rt's argv parser reads
// them (runtime/src/cli/parse.ts, driven by the same flag table): flags (and the word that is a
// flag's value), the built-in command, and the target name. Unlike the parser this keeps each
// word's position and goes on past an unknown flag, so every mistake can be underlined.
import { COMMANDS, flagByName, flagByShort, type FlagSpec } from "rt/flags";
import type { ShellCommand, Word } from "../core/shell-words.js";

export interface RtFlag {
  readonly word: Word;
  /** `--shell` of `--shell=rt`, `-r` of `-r./setup.ts`. */
  readonly shown: string;
  /** Undefined for an unknown flag. */
  readonly flag?: FlagSpec;
}

export interface RtInvocation {
  /** The `rt` word itself. */
  readonly rt: Word;
  readonly flags: readonly RtFlag[];
  /** `run`, `build`, ... */
  readonly command?: Word;
  /** The file, script, binary or command name, if one was given. */
  readonly target?: Word;
  /** Where more of rt's own arguments may be typed: from after `rt` to the target (or the end). */
  readonly argsEnd: number;
}

/** The rt invocation a command is, if its program is rt (also `npx rt`). */
export function rtInvocation(command: ShellCommand): RtInvocation | undefined {
  const words = command.words;
  let i = words[0]?.text === "npx" ? 1 : 0;
  const rt = words[i];
  if (!rt || !/(?:^|\/)rt$/.test(rt.text)) return undefined;
  const flags: RtFlag[] = [];
  let commandWord: Word | undefined;
  let selectsPackages = false;
  for (i++; i < words.length; i++) {
    const word = words[i]!;
    const arg = word.text;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      if (!commandWord && Object.hasOwn(COMMANDS, arg) && (arg === "run" || !selectsPackages)) {
        commandWord = word;
        continue;
      }
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const shown = arg.slice(0, eq === -1 ? undefined : eq);
      const flag = flagByName(shown.slice(2));
      const known = flag && flag.name.length > 1 ? flag : undefined;
      flags.push({ word, shown, flag: known });
      if (known?.name === "filter" || known?.name === "workspaces") selectsPackages = true;
      if (known && eq === -1 && known.type !== "boolean" && !known.optionalValue) i++;
      continue;
    }
    // Short flags: -hv, -e <code>, -r./setup.ts
    for (let j = 1; j < arg.length; j++) {
      const flag = flagByShort(arg[j]!);
      flags.push({ word, shown: `-${arg[j]}`, flag });
      if (flag?.name === "filter") selectsPackages = true;
      if (!flag || flag.type === "boolean") continue;
      if (j === arg.length - 1) i++;
      break;
    }
  }
  const target = words[i];
  return { rt, flags, command: commandWord, target, argsEnd: target?.start ?? command.end };
}
