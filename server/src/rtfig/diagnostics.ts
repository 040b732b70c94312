// rtfig.toml problems, as rt would report them when it reads the file: syntax errors and keys
// defined twice (rt refuses the file), keys rt ignores (unknown, one-invocation flags) and values
// of the wrong type or outside an enum (rt refuses the file). A key defined twice hides nothing:
// the file's other problems are reported with it (rtfig/model.ts).
import { configTableOf, flagByName } from "rt-runtime/flags";
import { closestMatches } from "rt-runtime/scripts";
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { rangeOf } from "../core/text.js";
import type { Duplicate, RtfigDocument } from "./model.js";
import { isTable, schemaProblems, shownPath, tableSchema, type Path } from "./schema.js";

export function rtfigDiagnostics(document: TextDocument, model: RtfigDocument): Diagnostic[] {
  const text = document.getText();
  const diagnostics: Diagnostic[] = model.duplicates.map((duplicate) => duplicateDiagnostic(document, model, duplicate));
  if (model.syntaxError) {
    const { offset, message } = model.syntaxError;
    // The offending token: from the error's offset to the next blank or line end.
    const end = offset + (/^[^\s]*/.exec(text.slice(offset))?.[0].length ?? 0);
    diagnostics.push({
      range: rangeOf(document, offset, end),
      severity: DiagnosticSeverity.Error,
      source: "rt",
      code: "syntax",
      message: `Invalid TOML: ${message}`,
    });
    return diagnostics;
  }
  const problems = schemaProblems(model.value);
  for (const problem of problems) {
    const location = model.locations.get(JSON.stringify(problem.path));
    if (!location) continue;
    if (problem.kind === "unknown-key") {
      diagnostics.push({
        range: rangeOf(document, location.keyStart, location.keyEnd),
        severity: DiagnosticSeverity.Warning,
        source: "rt",
        code: "unknown-key",
        message: unknownKeyMessage(problem.path),
      });
    } else {
      diagnostics.push({
        range: rangeOf(document, location.valueStart, location.valueEnd),
        severity: DiagnosticSeverity.Error,
        source: "rt",
        code: "invalid-value",
        message: problem.message,
      });
    }
  }
  // A flag set twice (`console-depth` and `consoleDepth`), which rt refuses.
  const setBy = new Map<string, string>();
  const tables: [string[], Record<string, unknown>][] = [[[], model.value ?? {}]];
  if (isTable(model.value?.run)) tables.push([["run"], model.value.run]);
  for (const [table, entries] of tables) {
    for (const key of Object.keys(entries)) {
      const path = [...table, key];
      const flag = tableSchema(table)?.properties?.[key] && key !== "run" ? flagByName(kebab(key)) : undefined;
      const location = model.locations.get(JSON.stringify(path));
      if (!flag || !location) continue;
      const range = rangeOf(document, location.keyStart, location.keyEnd);
      const shown = shownPath(path);
      if (setBy.has(flag.name)) {
        diagnostics.push({
          range,
          severity: DiagnosticSeverity.Error,
          source: "rt",
          code: "set-twice",
          message: `"${shown}" sets --${flag.name} again (already set by "${setBy.get(flag.name)}")`,
        });
      } else setBy.set(flag.name, shown);
    }
  }
  return diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** A key defined twice, which rt refuses ("trying to redefine an already defined table or value"). */
function duplicateDiagnostic(document: TextDocument, model: RtfigDocument, { start, end, path }: Duplicate): Diagnostic {
  const first = path && model.locations.get(JSON.stringify(path));
  const where = first ? ` on line ${document.positionAt(first.keyStart).line + 1}` : "";
  return {
    range: rangeOf(document, start, end),
    severity: DiagnosticSeverity.Error,
    source: "rt",
    code: "duplicate-key",
    message: `Invalid TOML: ${path ? `"${shownPath(path)}"` : "this key"} is already defined${where}; rt refuses the file`,
  };
}

function unknownKeyMessage(path: Path): string {
  const key = String(path[path.length - 1]);
  const table = path.slice(0, -1).map(String);
  const shown = shownPath(path);
  const flag = table.length === 0 ? flagByName(kebab(key)) : undefined;
  if (flag?.config === "run") return `"${shown}" belongs in the [run] table (write it under [run] or as "run.${key}"); rt ignores it here`;
  const commandLineOnly = flag && configTableOf(flag) === undefined ? flag : undefined;
  if (commandLineOnly) return `"${shown}" (--${commandLineOnly.name}) applies to one invocation: give it on the command line; rt ignores it here`;
  const [best] = closestMatches(key, Object.keys(tableSchema(table)?.properties ?? {}));
  return `unknown key "${shown}"${best ? ` (did you mean "${[...table, best].join(".")}"?)` : ""}; rt ignores it`;
}

export function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
