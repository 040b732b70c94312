// `rt/scripts`: what `rt run <name>` runs, for tools that must agree with rt (the language
// server's hovers and diagnostics): the same resolution order and lifecycle, not a copy of them.
export { resolveRunTarget, type ResolveOptions, type RunTarget } from "./target.js";
export { lifecycleSteps, type Step } from "./lifecycle.js";
export { manifestFromJson, type Manifest } from "./manifest.js";
export { ProgramError } from "../errors.js";
export { unknownFlag } from "../cli/parse.js";
// Suggestions worded as rt's own ("did you mean ...").
export { closestMatches } from "../text.js";
