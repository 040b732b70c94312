// `rt-runtime/scripts`: the script runner and the argument scanner as tools need them (the language
// server's hovers and diagnostics): rt's own resolution order, lifecycle, workspace selection,
// argv reading and messages, not copies of them.
export { resolveRunTarget, type ResolveOptions, type RunTarget } from "./target.js";
export { lifecycleSteps, type Step } from "./lifecycle.js";
export { manifestFromJson, type Manifest } from "./manifest.js";
export { filterPackages, loadWorkspace, missingInPackage, noneHaveScript, type Workspace } from "./workspaces.js";
export { convertFlagValue, scanArgs, unknownFlag, type ScannedArg } from "../flags/parse.js";
export { ProgramError, UsageError } from "../errors.js";
// Suggestions worded as rt's own ("did you mean ...").
export { closestMatches } from "../text.js";
