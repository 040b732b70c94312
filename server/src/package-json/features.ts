// package.json features on top of the model: lenses that run or debug a script, completion of
// rt's flags and of script names inside `rt ...` commands, hovers saying what runs, and links
// to the files scripts name.
import { statSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { COMMANDS, commandTakes, FLAGS, type FlagSpec } from "rt-runtime/flags";
import { lifecycleSteps, resolveRunTarget, type RunTarget } from "rt-runtime/scripts";
import {
  CompletionItemKind,
  MarkupKind,
  type CancellationToken,
  type CodeLens,
  type CompletionItem,
  type DocumentLink,
  type Hover,
} from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { code, prose } from "../core/markdown.js";
import type { Word } from "../core/shell-words.js";
import { rangeOf, touches } from "../core/text.js";
import type { PackageJson, Script } from "./model.js";
import { workspaceSelection } from "./workspace.js";
import { rtInvocation, type RtInvocation } from "./rt-command.js";

/** The one argument of the rt.runScript / rt.debugScript commands (the extension's contract). */
export interface ScriptCommandArgument {
  readonly packageDir: string;
  readonly script: string;
}

/** Lenses on the scripts rt can run (an entry whose value is not a string is not a script to rt). */
export function scriptLenses(document: TextDocument, model: PackageJson): CodeLens[] {
  return model.scripts
    .filter((script) => script.command !== undefined)
    .flatMap((script) => {
      const range = rangeOf(document, script.keyStart, script.keyEnd);
      const argument: ScriptCommandArgument = { packageDir: model.dir, script: script.name };
      return [
        { range, command: { title: "Run Script", command: "rt.runScript", arguments: [argument] } },
        { range, command: { title: "Debug Script", command: "rt.debugScript", arguments: [argument] } },
      ];
    });
}

/** Flags completed by their long name, in the table's order (a one-letter flag has none). */
const LONG_FLAGS = FLAGS.filter((flag) => flag.name.length > 1);

export function scriptCompletion(document: TextDocument, model: PackageJson, offset: number): CompletionItem[] {
  const found = invocationAt(model, offset);
  if (!found) return [];
  const { invocation } = found;
  const words = [...invocation.flags.map((flag) => flag.word), invocation.command, invocation.target].filter((word) => word !== undefined);
  const word = words.find((candidate) => touches(offset, candidate.start, candidate.end));
  const start = word?.start ?? offset;
  const typed = document.getText().slice(start, offset);
  const range = rangeOf(document, start, offset);
  const eq = typed.indexOf("=");
  if (typed.startsWith("--") && eq !== -1) {
    const flag = LONG_FLAGS.find((candidate) => candidate.name === typed.slice(2, eq));
    const valueRange = rangeOf(document, start + eq + 1, offset);
    return (flag?.values ?? []).map((value) => ({
      label: value,
      kind: CompletionItemKind.EnumMember,
      detail: flag!.help,
      textEdit: { range: valueRange, newText: value },
    }));
  }
  const afterRun = invocation.command?.text === "run" && offset > invocation.command.end;
  if (typed.startsWith("-") || !afterRun) {
    // The flags the command written takes (rt build's --outdir only after `rt build`).
    const fitting = LONG_FLAGS.filter((flag) => commandTakes(invocation.commandName, flag));
    const flags = fitting.map(
      (flag): CompletionItem => ({
        label: `--${flag.name}`,
        kind: CompletionItemKind.Property,
        detail: flagUsage(flag),
        documentation: flagDocumentation(flag),
        textEdit: { range, newText: `--${flag.name}` },
      }),
    );
    if (typed.startsWith("-") || invocation.command) return flags;
    return [
      { label: "run", kind: CompletionItemKind.Keyword, detail: COMMANDS.run.usage, documentation: COMMANDS.run.help, textEdit: { range, newText: "run" } },
      ...flags,
    ];
  }
  return model.scripts
    .filter((script) => script.command !== undefined && script !== found.script)
    .map((script) => ({ label: script.name, kind: CompletionItemKind.Function, detail: script.command, textEdit: { range, newText: script.name } }));
}

export function scriptHover(document: TextDocument, model: PackageJson, offset: number): Hover | null {
  const script = model.scripts.find((candidate) => touches(offset, candidate.keyStart, candidate.keyEnd));
  if (script && model.manifest?.scripts.has(script.name)) return markdown(document, script.keyStart, script.keyEnd, describeScript(model, script));
  const found = invocationAt(model, offset);
  const flag = found?.invocation.flags.find(({ word }) => touches(offset, word.start, word.end));
  if (flag?.flag) return markdown(document, flag.word.start, flag.word.end, `${code(flagUsage(flag.flag))}\n\n${flagDocumentation(flag.flag)}`);
  const target = found?.invocation.target;
  if (found && target && touches(offset, target.start, target.end))
    return markdown(document, target.start, target.end, describeRtTarget(model, found.invocation, target));
  const rt = modelScript(model, offset)?.invocations.find((invocation) => touches(offset, invocation.rt.start, invocation.rt.end));
  if (rt) return markdown(document, rt.rt.start, rt.rt.end, describeRt(model, rt));
  for (const command of modelScript(model, offset)?.commands ?? []) {
    const program = command.words[0];
    if (program && touches(offset, program.start, program.end) && !found)
      return markdown(document, program.start, program.end, describeProgram(model, program));
  }
  return null;
}

const LINKED_EXTENSIONS = /\.(?:[cm]?[jt]sx?|json|toml|ya?ml|sh|md|env|html|css)$/;

export function scriptLinks(document: TextDocument, model: PackageJson, token: CancellationToken): DocumentLink[] {
  const links: DocumentLink[] = [];
  for (const script of model.scripts) {
    // Each candidate costs a stat: stop when the editor no longer wants the answer.
    if (token.isCancellationRequested) break;
    for (const command of script.commands) {
      for (const word of command.words) {
        const eq = word.text.startsWith("-") ? word.text.indexOf("=") : -1;
        const value = eq === -1 ? word.text : word.text.slice(eq + 1);
        if (!value || value.includes("$") || value.includes("*") || (!/[/\\]/.test(value) && !LINKED_EXTENSIONS.test(value))) continue;
        if (value.startsWith("-") || /^[a-z]+:\/\//i.test(value)) continue;
        const file = path.resolve(model.dir, value);
        if (!statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
        // The value's offsets: the word's end, back by the value's length when unquoted; else the whole word.
        const start = eq !== -1 && word.end - word.start === word.text.length ? word.start + eq + 1 : word.start;
        links.push({ range: rangeOf(document, start, word.end), target: pathToFileURL(file).href, tooltip: file });
      }
    }
  }
  return links;
}

function invocationAt(model: PackageJson, offset: number): { script: Script; invocation: RtInvocation } | undefined {
  const script = modelScript(model, offset);
  const invocation = script?.invocations.find((candidate) => offset > candidate.rt.end && offset <= Math.max(candidate.argsEnd, candidate.target?.end ?? 0));
  return script && invocation && { script, invocation };
}

/** The script whose string value holds `offset` (between its quotes). */
function modelScript(model: PackageJson, offset: number): Script | undefined {
  return model.scripts.find((script) => script.command !== undefined && offset > script.valueStart && offset < script.valueEnd);
}

function flagUsage(flag: FlagSpec): string {
  const value = flag.values ? `<${flag.values.join("|")}>` : flag.type === "boolean" ? "" : (flag.valueName ?? `<${flag.type}>`);
  const short = flag.short ? `-${flag.short}, ` : "";
  return `${short}--${flag.name}${value ? (flag.optionalValue ? `[=${value.replace(/^\[|\]$/g, "")}]` : `=${value}`) : ""}`;
}

function flagDocumentation(flag: FlagSpec): string {
  const alias = !flag.aliasOf ? "" : flag.type === "list" ? ` (the values join --${flag.aliasOf}'s)` : ` (sets --${flag.aliasOf})`;
  return flag.default === undefined ? `${flag.help}${alias}` : `${flag.help}${alias}\n\nDefault: ${code(String(flag.default))}`;
}

/** The steps `rt run <name>` runs, and what each command of the main step resolves to. */
function describeScript(model: PackageJson, script: Script): string {
  const steps = lifecycleSteps(model.manifest!, script.name, [], "system");
  const lines = [`**rt run ${prose(script.name)}** runs in ${code(model.dir)}:`, ""];
  steps.forEach((step, index) => lines.push(`${index + 1}. ${code(step.name)}: ${code(step.command)}`));
  const resolutions = script.commands.flatMap((command) => {
    const invocation = rtInvocation(command);
    if (invocation) return [describeRtRun(model, invocation)];
    const program = command.words[0];
    return program ? [describeProgram(model, program)] : [];
  });
  if (resolutions.length) lines.push("", ...resolutions.map((line) => `- ${line}`));
  return lines.join("\n");
}

/**
 * Hover on the `rt` of a script: rt itself (not a file or binary of that name), what the command
 * runs and what each of its flags does.
 */
function describeRt(model: PackageJson, invocation: RtInvocation): string {
  const flags = invocation.flags.map(({ word, flag }) => `- ${code(word.text)}: ${flag ? flag.help : "not an rt flag"}`);
  return [`**rt**: the rt runtime`, describeRtRun(model, invocation), ...(flags.length ? [flags.join("\n")] : [])].join("\n\n");
}

/** What an `rt ...` command runs: a built-in command, or the target `rt run` finds. */
function describeRtRun(model: PackageJson, invocation: RtInvocation): string {
  const { command, commandName, target } = invocation;
  if (commandName && commandName !== "run") return `${code(`rt ${commandName}`)}: ${COMMANDS[commandName].help}`;
  if (target) return describeRtTarget(model, invocation, target);
  const written = [invocation.rt, ...invocation.flags.map((flag) => flag.word), ...(command ? [command] : [])];
  return `${code(written.map((word) => word.text).join(" "))} names no program to run`;
}

function describeRtTarget(model: PackageJson, invocation: RtInvocation, target: Word): string {
  const selection = workspaceSelection(invocation, model);
  if (selection && "error" in selection) return prose(selection.error.message);
  if (selection) {
    const runs = selection.packages.map(
      (manifest) => `\n  - ${code(manifest.name ?? path.relative(model.dir, manifest.dir))}: ${code(manifest.scripts.get(selection.script) ?? "")}`,
    );
    return `${code(selection.script)} runs in ${runs.length} workspace ${runs.length === 1 ? "package" : "packages"}:${runs.join("")}`;
  }
  const forced = invocation.command?.text === "run";
  const resolved = resolveRunTarget(target.text, { forced, ifPresent: true, cwd: model.dir, manifest: model.manifest });
  return describeTarget(`rt ${forced ? "run " : ""}${target.text}`, resolved, model.dir);
}

/** The program of a command: what the shell finds (node_modules/.bin is on a script's PATH). */
function describeProgram(model: PackageJson, program: Word): string {
  const resolved = resolveRunTarget(program.text, { forced: true, ifPresent: true, cwd: model.dir, manifest: undefined });
  return describeTarget(program.text, resolved, model.dir);
}

function describeTarget(shown: string, target: RunTarget, dir: string): string {
  const relative = (file: string): string => (file.startsWith(dir + path.sep) ? path.relative(dir, file) : file);
  switch (target.kind) {
    case "script": {
      const hooks = [`pre${target.name}`, `post${target.name}`].filter((hook) => target.manifest.scripts.has(hook));
      const withHooks = hooks.length ? ` (with ${hooks.map(code).join(" and ")})` : "";
      return `${code(shown)} runs the script ${code(target.name)}${withHooks}: ${code(target.manifest.scripts.get(target.name) ?? "")}`;
    }
    case "file":
      return `${code(shown)} runs the file ${code(relative(target.file))}`;
    case "binary":
      return `${code(shown)} runs the project binary ${code(relative(target.file))}`;
    case "command":
      return `${code(shown)} runs the system command ${code(target.file)}`;
    case "absent":
      return `${code(shown)}: no script, file, binary or command of that name`;
  }
}

function markdown(document: TextDocument, start: number, end: number, value: string): Hover {
  return { contents: { kind: MarkupKind.Markdown, value }, range: rangeOf(document, start, end) };
}
