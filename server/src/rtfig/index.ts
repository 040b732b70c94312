// rtfig.toml: rt's configuration file, checked against the schema the runtime generates.
import type { DocumentKind } from "../core/kinds.js";
import { rtfigDiagnostics } from "./diagnostics.js";
import { rtfigCompletion, rtfigHover } from "./features.js";
import { parseRtfig, type RtfigDocument } from "./model.js";

export const rtfigKind: DocumentKind<RtfigDocument> = {
  fileName: "rtfig.toml",
  parse: (document) => parseRtfig(document.getText()),
  diagnostics: rtfigDiagnostics,
  completion: (document, _model, position) => rtfigCompletion(document, position),
  hover: (document, _model, position) => rtfigHover(document, position),
};
