// Terminal syntax highlighting for source previews. js-tokens splits JavaScript (and, closely
// enough for a preview, TypeScript) into tokens; this only picks a colour per token.
import type { Token } from "js-tokens";

const KEYWORDS = new Set(
  (
    "abstract as async await break case catch class const continue debugger declare default delete do else enum " +
    "export extends finally for from function get if implements import in instanceof interface keyof let namespace " +
    "new of private protected public readonly return satisfies set static super switch this throw try type typeof " +
    "var void while with yield"
  ).split(" "),
);
const LITERALS = new Set(["true", "false", "null", "undefined", "NaN", "Infinity"]);
const TYPES = new Set(["any", "bigint", "boolean", "never", "number", "object", "string", "symbol", "unknown", "void"]);

const RESET = "\x1b[0m";
const STYLE = {
  keyword: "\x1b[35m",
  type: "\x1b[34m",
  literal: "\x1b[33m",
  string: "\x1b[32m",
  comment: "\x1b[2m",
  punctuator: "\x1b[2m",
} as const;

function styleOf(token: Token): string | undefined {
  switch (token.type) {
    case "StringLiteral":
    case "NoSubstitutionTemplate":
    case "TemplateHead":
    case "TemplateMiddle":
    case "TemplateTail":
    case "RegularExpressionLiteral":
      return STYLE.string;
    case "NumericLiteral":
      return STYLE.literal;
    case "SingleLineComment":
    case "MultiLineComment":
      return STYLE.comment;
    case "IdentifierName":
      if (KEYWORDS.has(token.value)) return STYLE.keyword;
      if (TYPES.has(token.value)) return STYLE.type;
      return LITERALS.has(token.value) ? STYLE.literal : undefined;
    case "Punctuator":
      return token.value === ";" || token.value === "," ? STYLE.punctuator : undefined;
    default:
      return undefined;
  }
}

/** `line` with ANSI colours; a line the tokenizer cannot follow is returned unchanged. */
export function highlightLine(line: string): string {
  // js-tokens is an ES module exporting its function as "module.exports": require() returns it.
  const jsTokens = require("js-tokens") as typeof import("js-tokens").default;
  let out = "";
  for (const token of jsTokens(line)) {
    const style = styleOf(token);
    out += style ? `${style}${token.value}${RESET}` : token.value;
  }
  return out;
}
