// package.json problems rt would hit when running a script: JSON syntax errors, `rt run <name>`
// naming nothing rt can run (rt's own resolution and message), an unknown or not yet supported
// rt flag or a value rt refuses (rt's own messages), and a pre/post hook whose main script is
// missing (so the hook never runs).
import { commandsTaking, commandTakes, type CommandName, type FlagSpec } from "rt-runtime/flags";
import { convertFlagValue, ProgramError, resolveRunTarget, unknownFlag, UsageError } from "rt-runtime/scripts";
import { DiagnosticSeverity, type CancellationToken, type Diagnostic } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { rangeOf } from "../core/text.js";
import type { PackageJson } from "./model.js";
import { workspaceSelection } from "./workspace.js";

const SOURCE = "rt";

/**
 * Names npm runs its own `pre`/`post` hooks around (npm install, npm publish, ...), and scripts
 * whose name merely starts with pre/post (`preview`, `prettier`, `postcss`): no missing main.
 */
const NOT_HOOKS = new Set([
  "install",
  "uninstall",
  "publish",
  "publishOnly",
  "pack",
  "version",
  "shrinkwrap",
  "start",
  "stop",
  "restart",
  "test",
  "dependencies",
  "pare",
  "view",
  "ttier",
  "css",
  "fix",
]);

const NO_SINGLE_TARGET = new Set(["eval", "print", "filter", "workspaces", "parallel", "sequential"]);

export function packageJsonDiagnostics(document: TextDocument, model: PackageJson, token: CancellationToken): Diagnostic[] {
  const diagnostics: Diagnostic[] = model.syntaxErrors.map((error) => ({
    range: rangeOf(document, error.start, error.end),
    severity: DiagnosticSeverity.Error,
    source: SOURCE,
    message: `Invalid JSON: ${error.message}`,
  }));
  const add = (start: number, end: number, severity: DiagnosticSeverity, message: string, code: string): void => {
    diagnostics.push({ range: rangeOf(document, start, end), severity, source: SOURCE, message, code });
  };
  const names = new Set(model.scripts.map((script) => script.name));
  for (const script of model.scripts) {
    if (token.isCancellationRequested) return diagnostics;
    const hook = /^(pre|post)(.+)$/.exec(script.name);
    if (hook && !names.has(hook[2]!) && !NOT_HOOKS.has(hook[2]!)) {
      add(
        script.keyStart,
        script.keyEnd,
        DiagnosticSeverity.Warning,
        `"${script.name}" is the ${hook[1]} hook of "${hook[2]}", which is not a script here: it never runs`,
        "orphan-hook",
      );
    }
    for (const invocation of script.invocations) {
      for (const { word, shown, flag, value } of invocation.flags) {
        if (!flag) add(word.start, word.end, DiagnosticSeverity.Error, unknownFlag(shown).message, "unknown-flag");
        else if (!commandTakes(invocation.commandName, flag))
          add(word.start, word.end, DiagnosticSeverity.Error, `${misplaced(shown, flag, invocation.commandName)}: rt refuses it here`, "misplaced-flag");
        else if (value === undefined) add(word.start, word.end, DiagnosticSeverity.Error, `${shown} needs a value`, "invalid-value");
        else if (typeof value === "string" && !value.includes("$")) {
          try {
            convertFlagValue(flag, value, shown);
          } catch (error) {
            if (!(error instanceof UsageError)) throw error;
            add(word.start, word.end, DiagnosticSeverity.Error, error.message, "invalid-value");
          }
        }
      }
      const target = invocation.target;
      const selection = workspaceSelection(invocation, model);
      if (target && selection && "error" in selection) add(target.start, target.end, DiagnosticSeverity.Error, selection.error.message, "not-found");
      // `rt build ...` is a built-in command, `rt -e`/`-p` evaluate code, --filter and friends
      // name scripts of other packages (or globs), and `$X` is only known when the shell runs.
      const elsewhere = invocation.flags.some(({ flag }) => flag && NO_SINGLE_TARGET.has(flag.name));
      if (!target || elsewhere || target.text.includes("$") || (invocation.command && invocation.command.text !== "run")) continue;
      try {
        resolveRunTarget(target.text, {
          forced: invocation.command !== undefined,
          ifPresent: invocation.flags.some(({ flag }) => flag?.name === "if-present"),
          cwd: model.dir,
          manifest: model.manifest,
        });
      } catch (error) {
        if (!(error instanceof ProgramError)) throw error;
        add(target.start, target.end, DiagnosticSeverity.Error, error.message, "not-found");
      }
    }
  }
  return diagnostics;
}

/** What rt says of a flag its command does not take: another command's own, or a flag for running programs. */
function misplaced(shown: string, flag: FlagSpec, command: CommandName | undefined): string {
  if (commandTakes("run", flag)) return `${shown} does not apply to rt ${command}`;
  return `${shown} is a flag of "rt ${commandsTaking(flag)[0]}"`;
}
