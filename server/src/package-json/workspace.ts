// `rt --filter <pattern> <script>` and `rt run --workspaces <script>` in a script: the workspace
// packages that run it, found as rt finds them (rt-runtime/scripts: loadWorkspace, filterPackages), read
// from disk around the package.json being edited.
import { filterPackages, loadWorkspace, missingInPackage, noneHaveScript, ProgramError, type Manifest, type Workspace } from "rt-runtime/scripts";
import type { PackageJson } from "./model.js";
import type { RtInvocation } from "./rt-command.js";

export type Selection = { readonly packages: readonly Manifest[]; readonly script: string } | { readonly error: ProgramError };

/** Undefined when the invocation does not select workspace packages (or names a glob of scripts). */
export function workspaceSelection(invocation: RtInvocation, model: PackageJson): Selection | undefined {
  const dir = model.dir;
  const filters = invocation.flags.filter(({ flag }) => flag?.name === "filter").map(({ value }) => (typeof value === "string" ? value : ""));
  const every = invocation.flags.some(({ flag }) => flag?.name === "workspaces");
  const script = invocation.target?.text;
  const several = invocation.flags.some(({ flag }) => flag?.name === "parallel" || flag?.name === "sequential");
  if ((!filters.length && !every) || !script || several || /[*?$]/.test(script) || filters.some((filter) => filter.includes("$"))) return undefined;
  const ifPresent = invocation.flags.some(({ flag }) => flag?.name === "if-present");
  try {
    const workspace = workspaceOf(model);
    const selected = filters.length ? filterPackages(workspace, filters, dir) : workspace.packages;
    const packages = selected.filter((manifest) => manifest.scripts.has(script));
    const lacking = selected.find((manifest) => !manifest.scripts.has(script));
    if (every && lacking && !ifPresent) throw missingInPackage(lacking, script);
    if (!every && packages.length === 0 && !ifPresent) throw noneHaveScript([script], selected, filters);
    return { packages, script };
  } catch (error) {
    if (error instanceof ProgramError) return { error };
    throw error;
  }
}

/** The workspace around a document version, read once however many scripts select packages. */
const workspaces = new WeakMap<PackageJson, Workspace | ProgramError>();

function workspaceOf(model: PackageJson): Workspace {
  let workspace = workspaces.get(model);
  if (!workspace) {
    try {
      workspace = loadWorkspace(model.dir);
    } catch (error) {
      if (!(error instanceof ProgramError)) throw error;
      workspace = error;
    }
    workspaces.set(model, workspace);
  }
  if (workspace instanceof ProgramError) throw workspace;
  return workspace;
}
