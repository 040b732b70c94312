// docs/flags.md, generated from the flag table as `rt --help` is: one table per group, with what
// rtfig.toml can hold. A test fails when the committed page differs (`npm run docs` rewrites it).
import { COMMANDS, commandsTaking, configTableOf, FLAG_GROUPS, FLAGS, type CommandFlags, type FlagSpec } from "../flags/table.js";

export function flagReference(): string {
  const lines = [
    "# Every flag",
    "",
    "Generated from the flag table (`runtime/src/flags/table.ts`) by `npm run docs`; do not edit by hand.",
    "Runtime flags go right after `rt` (or `rt run`). The rtfig.toml column says where",
    "[rtfig.toml](configuration.md) may hold a default: a top-level key, the `[run]` table, or nowhere",
    "(a flag that describes one invocation).",
    "",
    "## Commands",
    "",
    "| command | usage | what it does | flags it takes |",
    "|---|---|---|---|",
    ...Object.entries(COMMANDS).map(([name, command]) => row([`\`${name}\``, `\`${command.usage}\``, prose(command.help), takesText(command.takes)])),
  ];
  for (const [group, title] of Object.entries(FLAG_GROUPS)) {
    lines.push("", `## ${title}`, "", "| flag | value | default | rtfig.toml | what it does |", "|---|---|---|---|---|");
    for (const flag of FLAGS) if (flag.group === group) lines.push(flagRow(flag));
  }
  return lines.join("\n") + "\n";
}

function flagRow(flag: FlagSpec): string {
  const names = [flag.name.length === 1 ? `-${flag.name}` : `--${flag.name}`, ...(flag.short ? [`-${flag.short}`] : [])];
  const cells = [
    names.map((name) => `\`${name}\``).join(", "),
    valueText(flag),
    flag.default === undefined ? "" : `\`${flag.default}\``,
    configCell(flag),
    prose(flag.help),
  ];
  return row(cells);
}

/** A command's `takes`: its groups by title, then its single flags. */
function takesText({ groups, flags }: CommandFlags): string {
  return [...groups.map((group) => FLAG_GROUPS[group]), ...flags.map((name) => `\`--${name}\``)].join(", ");
}

/** Where rtfig.toml may hold the flag's default; a command's own flag (rt build's) says whose it is. */
function configCell(flag: FlagSpec): string {
  const commands = commandsTaking(flag);
  if (!commands.includes("run")) return commands.map((command) => `(\`rt ${command}\` only)`).join(" ");
  const table = configTableOf(flag);
  return table === undefined ? "no" : table === "run" ? "`[run]` table" : "yes";
}

/** A table row; a `|` inside a cell (code spans included) would end the cell. */
function row(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, "\\|")).join(" | ")} |`;
}

/** Help text as Markdown: `<code>` is a placeholder, not an HTML tag. */
function prose(text: string): string {
  return text.replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function valueText(flag: FlagSpec): string {
  if (flag.type === "boolean") return "";
  const placeholder = flag.values ? flag.values.map((value) => `\`${value}\``).join(", ") : `\`${flag.valueName ?? "<value>"}\``;
  const kind = flag.type === "list" ? `${placeholder} (repeatable)` : flag.type === "number" ? `${placeholder} (a number)` : placeholder;
  return flag.optionalValue ? `optional: ${kind}` : kind;
}
