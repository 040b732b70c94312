// What an ES module's static import and export-from statements ask of one specifier, read from
// its JavaScript text: the CommonJS facade (commonjs-interop.ts) must know the names before the
// module runs.
import type { Asked } from "./commonjs-interop.js";

// Text that holds no statement: comments (svelte's compiler has `/** @import { X } from
// "aria-query" */`, a type, beside its real import of aria-query), string and template literals,
// and regular expression literals (a `/` after a punctuator that cannot end an operand).
const SKIPPED = String.raw`\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\[\s\S])*"|'(?:[^'\\\n]|\\[\s\S])*'|\x60(?:[^\x60\\]|\\[\s\S])*\x60|(?<=[(,=:[!&|?{};]\s*)\/(?![*/])(?:[^/\\\n[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+\/`;
// Made on first use: creating this literal (Unicode property classes) costs ~0.4 ms, which every
// start paid when it was made with the bundle.
let identifier: RegExp | undefined;

/**
 * The names `source` imports (or re-exports) from `specifier`: "default" for a default import,
 * "all" for a namespace import, `export *`, or when no static statement naming it can be read
 * (a dynamic import(), a quoted name rt does not parse): then every key is needed.
 */
export function askedOf(source: string, specifier: string): Asked {
  const escaped = specifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // `import` or `export`, a clause without quotes or parentheses (not import()), `from`, the specifier.
  const statement = String.raw`\b(?<keyword>import|export)(?<between>\s*[^;'"\x60()]*?\s*from\s*|\s*)(?<quote>["'])${escaped}\k<quote>`;
  // A cheap pass finds where the last statement could end; the pass that skips comments and
  // literals (costlier, matching every one) stops there: imports are nearly always at the top.
  let end = -1;
  for (const match of source.matchAll(new RegExp(statement, "g"))) end = match.index + match[0].length;
  if (end === -1) return "all";
  const names = new Set<string>();
  let found = false;
  for (const match of source.matchAll(new RegExp(`(?<skipped>${SKIPPED})|${statement}`, "g"))) {
    if (match.index >= end) break;
    const { skipped, keyword, between } = match.groups!;
    if (skipped !== undefined) continue;
    const clause = between!
      .trim()
      .replace(/\bfrom$/, "")
      .trim();
    if (clause === "") {
      if (keyword === "export") return "all";
      found = true; // `import "x"`: runs it, asks no name
      continue;
    }
    if (clause.includes("*")) return "all";
    const open = clause.indexOf("{");
    const head = (open === -1 ? clause : clause.slice(0, open)).replace(/,\s*$/, "").trim();
    if (head) {
      if (keyword === "export" || !(identifier ??= /^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$\u200c\u200d]*$/u).test(head)) return "all";
      names.add("default");
    }
    if (open !== -1) {
      const close = clause.indexOf("}", open);
      if (close === -1) return "all";
      for (const entry of clause.slice(open + 1, close).split(",")) {
        const name = entry.trim().split(/\s+/)[0];
        if (name) names.add(name);
      }
    }
    found = true;
  }
  return found ? names : "all";
}
