// package.json: scripts, as `rt run` sees them.
import type { DocumentKind } from "../core/kinds.js";
import { packageJsonDiagnostics } from "./diagnostics.js";
import { scriptCompletion, scriptHover, scriptLenses, scriptLinks } from "./features.js";
import { parsePackageJson, type PackageJson } from "./model.js";

export const packageJsonKind: DocumentKind<PackageJson> = {
  fileName: "package.json",
  parse: parsePackageJson,
  diagnostics: packageJsonDiagnostics,
  completion: (document, model, position) => scriptCompletion(document, model, document.offsetAt(position)),
  hover: (document, model, position) => scriptHover(document, model, document.offsetAt(position)),
  codeLenses: scriptLenses,
  links: scriptLinks,
};
