// `rt --help`, generated from the flag table.
import { COMMANDS, FLAG_GROUPS, FLAGS, type FlagSpec } from "../flags/table.js";

declare const RT_VERSION: string;

const COLUMN = 38;

export function helpText(): string {
  const lines = [
    `rt ${RT_VERSION}: a TypeScript-first JavaScript runtime`,
    "",
    "Usage: rt [flags] <file|script> [args...]",
    "       rt run [flags] <file|script|binary|command> [args...]",
    "       rt run [--json]                         (list the package.json scripts)",
    "       rt --filter <pattern> | --workspaces <script> [args...]",
    "       rt run --parallel | --sequential <script...>",
    "       rt [flags] -e <code> | -p <code> | run - (code from stdin)",
    "       rt --test [flags] [<glob|file|dir>...]   (Node's test runner)",
    "",
    "Commands:",
    ...Object.entries(COMMANDS).map(([name, command]) => row(`  ${name}`, command.help)),
  ];
  for (const [group, title] of Object.entries(FLAG_GROUPS)) {
    lines.push("", `${title}:`);
    for (const flag of FLAGS) if (flag.group === group) lines.push(flagRow(flag));
  }
  lines.push("", "Flags go right after `rt` (or `rt run`); everything after the file name reaches the program in process.argv.", "");
  return lines.join("\n");
}

function flagRow(flag: FlagSpec): string {
  const long = flag.name.length === 1 ? "" : `--${flag.name}`;
  const short = flag.short ?? (flag.name.length === 1 ? flag.name : undefined);
  const names = short ? `-${short}${long ? `, ${long}` : ""}` : `    ${long}`;
  let value = "";
  if (flag.type !== "boolean") {
    const placeholder = flag.values ? `<${flag.values.join("|")}>` : (flag.valueName ?? "<value>");
    value = flag.optionalValue ? `[=${placeholder.replace(/^\[|\]$/g, "")}]` : `=${placeholder}`;
  }
  const defaultText = flag.default !== undefined ? ` (default: ${flag.default})` : "";
  return row(`  ${names}${value}`, flag.help + defaultText);
}

function row(left: string, right: string): string {
  return left.length < COLUMN ? left.padEnd(COLUMN) + right : `${left}\n${" ".repeat(COLUMN)}${right}`;
}
