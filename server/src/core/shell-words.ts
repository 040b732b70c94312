// A script's command line split into commands and words, each word with its unquoted text and
// its offsets in the script. Enough of the shell to find what a script runs (`rt run x`, `tsc`)
// and the files it names: quotes, backslashes, `&&` `||` `;` `|` `&`, parentheses, newlines and
// leading `VAR=value` assignments. Expansions stay literal: the server never runs anything.

export interface Word {
  /** The word with quotes and backslashes removed. */
  readonly text: string;
  /** Offsets in the script's text (end exclusive). */
  readonly start: number;
  readonly end: number;
}

export interface ShellCommand {
  /** The words after any leading `VAR=value` assignments. */
  readonly words: readonly Word[];
  /** Where the command ends: the operator after it or the script's end (completion looks here). */
  readonly end: number;
}

/** `&&`, `||`, `;;`, or one of `;|&()` and newline, at `i`; its length, or 0. */
function operatorAt(script: string, i: number): number {
  const char = script[i]!;
  if (!";|&()\n".includes(char)) return 0;
  const next = script[i + 1];
  return (char === "&" || char === "|" || char === ";") && next === char ? 2 : 1;
}

const WORD_END = new Set([" ", "\t", "\r", "\n", ";", "&", "|", "(", ")"]);

export function splitCommands(script: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let words: Word[] = [];
  const finish = (end: number): void => {
    const first = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text));
    commands.push({ words: first === -1 ? [] : words.slice(first), end });
    words = [];
  };
  let i = 0;
  while (i < script.length) {
    const char = script[i]!;
    if (char === " " || char === "\t" || char === "\r") {
      i++;
      continue;
    }
    const operator = operatorAt(script, i);
    if (operator) {
      finish(i);
      i += operator;
      continue;
    }
    const start = i;
    let text = "";
    while (i < script.length && !WORD_END.has(script[i]!)) {
      const c = script[i]!;
      if (c === "'") {
        const close = script.indexOf("'", i + 1);
        const end = close === -1 ? script.length : close;
        text += script.slice(i + 1, end);
        i = end + 1;
      } else if (c === '"') {
        i++;
        while (i < script.length && script[i] !== '"') {
          if (script[i] === "\\" && i + 1 < script.length && '"\\$`'.includes(script[i + 1]!)) i++;
          text += script[i++];
        }
        i++;
      } else if (c === "\\" && i + 1 < script.length) {
        text += script[i + 1];
        i += 2;
      } else {
        text += c;
        i++;
      }
    }
    words.push({ text, start, end: Math.min(i, script.length) });
  }
  finish(script.length);
  return commands;
}
