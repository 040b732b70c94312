// `rt run` with no name: every script of the package (or of the packages --filter/--workspaces
// select) with its command, ending with a count line; `--json` gives the same as a JSON array of
// { "name", "command", "package", "dir" } for tools (the editor's task provider).
import { displayPath } from "../text.js";
import { packageLabel, type Manifest } from "./manifest.js";

export interface ListedScript {
  readonly name: string;
  readonly command: string;
  /** The package's `name`, or null when it has none. */
  readonly package: string | null;
  /** The package's directory (absolute): where the script runs. */
  readonly dir: string;
}

export function scriptsJson(manifests: readonly Manifest[]): string {
  const listed: ListedScript[] = manifests.flatMap((manifest) =>
    [...manifest.scripts].map(([name, command]) => ({ name, command, package: manifest.name ?? null, dir: manifest.dir })),
  );
  return `${JSON.stringify(listed, null, 2)}\n`;
}

/** One package: `$ rt run <name>` blocks. Several: a heading per package, `$ rt --filter <pkg> <name>`. */
export function scriptsText(manifests: readonly Manifest[], severalPackages: boolean): string {
  let text = "";
  let count = 0;
  for (const manifest of manifests) {
    if (severalPackages) text += `${packageLabel(manifest)} (${displayPath(manifest.file)}):\n`;
    const run = severalPackages ? `rt --filter ${manifest.name ?? `./${displayPath(manifest.dir)}`}` : "rt run";
    for (const [name, command] of manifest.scripts) text += `  $ ${run} ${name}\n    ${command.replaceAll("\n", "\n    ")}\n\n`;
    count += manifest.scripts.size;
  }
  const scripts = `${count} ${count === 1 ? "script" : "scripts"}`;
  return text + (severalPackages ? `${scripts} in ${manifests.length} packages\n` : `${scripts} in ${displayPath(manifests[0]!.file)}\n`);
}
