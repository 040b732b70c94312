// An `rt ...` command inside a script, read by rt's own argument scanner (rt-runtime/scripts scanArgs,
// the one parseArgs uses): its flags with their values, the built-in command, and the target
// name, each with the word it is written in.
import type { CommandName, FlagSpec } from "rt-runtime/flags";
import { scanArgs } from "rt-runtime/scripts";
import type { ShellCommand, Word } from "../core/shell-words.js";

export interface RtFlag {
  readonly word: Word;
  /** `--shell` of `--shell=rt`, `-r` of `-r./setup.ts`. */
  readonly shown: string;
  /** Undefined for an unknown flag. */
  readonly flag?: FlagSpec;
  /** The flag's value (`rt` of `--shell=rt` or `--shell rt`); true for a flag without one; undefined when missing. */
  readonly value?: string | true;
}

export interface RtInvocation {
  /** The `rt` word itself. */
  readonly rt: Word;
  readonly flags: readonly RtFlag[];
  /** `run`, `build`, ... */
  readonly command?: Word;
  /** The command `command` names. */
  readonly commandName?: CommandName;
  /** The file, script, binary or command name, if one was given. */
  readonly target?: Word;
  /** Where more of rt's own arguments may be typed: from after `rt` to the target (or the end). */
  readonly argsEnd: number;
}

/** The rt invocation a command is, if its program is rt (also `npx rt`). */
export function rtInvocation(command: ShellCommand): RtInvocation | undefined {
  const start = command.words[0]?.text === "npx" ? 1 : 0;
  const rt = command.words[start];
  if (!rt || !/(?:^|\/)rt$/.test(rt.text)) return undefined;
  const words = command.words.slice(start + 1);
  const flags: RtFlag[] = [];
  let commandWord: Word | undefined;
  let commandName: CommandName | undefined;
  let target: Word | undefined;
  for (const arg of scanArgs(words.map((word) => word.text))) {
    if (arg.kind === "flag") flags.push({ word: words[arg.index]!, shown: arg.shown, flag: arg.flag, value: arg.value });
    else if (arg.kind === "command") {
      commandWord = words[arg.index];
      commandName = arg.command;
    } else target = words[arg.index];
  }
  return { rt, flags, command: commandWord, commandName, target, argsEnd: target?.start ?? command.end };
}
