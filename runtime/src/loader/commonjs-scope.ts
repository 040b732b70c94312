// `require`, `__filename` and `__dirname` in ES modules, as bun gives them: a file that mixes
// import/export with require() runs, and so does TypeScript's `import x = require("y")` (which
// compiles to a require() call) in a "type": "module" package. A module that uses one of these
// names without declaring it gets one import line, from a data: URL module made for it. It is
// added as the last line of code, so no line moves and the source map stays right.
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { mapCommentAt } from "../diagnostics/source-maps.js";

const NAMES = ["require", "__filename", "__dirname"] as const;
const MAY_USE = /\brequire\b|\b__filename\b|\b__dirname\b/;

/** `code` (an ES module's) with the CommonJS names it uses freely imported. */
export function withCommonJsScope(code: string, file: string): string {
  if (!MAY_USE.test(code)) return code;
  const names = NAMES.filter((name) => usedFreely(code, name));
  if (names.length === 0) return code;
  const scope = [
    `import { createRequire } from "node:module";`,
    `export const require = createRequire(${JSON.stringify(pathToFileURL(file).href)});`,
    `export const __filename = ${JSON.stringify(file)};`,
    `export const __dirname = ${JSON.stringify(path.dirname(file))};`,
  ].join("\n");
  const line = `import { ${names.join(", ")} } from ${JSON.stringify(`data:text/javascript,${encodeURIComponent(scope)}`)};\n`;
  const map = mapCommentAt(code);
  if (map === -1) return `${code}${code.endsWith("\n") ? "" : "\n"}${line}`;
  return `${code.slice(0, map)}${line}${code.slice(map)}`;
}

// Used as a variable (not as `x.require`) and declared nowhere: a second declaration of the
// name would be a SyntaxError, so any sign of one (a declaration keyword, a destructuring or
// import list, an `as` rename) leaves the module as it is.
function usedFreely(code: string, name: string): boolean {
  if (!new RegExp(`(?<![.\\w$])${name}(?![\\w$])`).test(code)) return false;
  return !new RegExp(`\\b(?:const|let|var|function\\*?|class|as|import)\\s+${name}(?![\\w$])|[{,]\\s*${name}\\s*[,;}=]`).test(code);
}
