// What an ES module's static import and export-from statements ask of one specifier, read from
// its JavaScript text: the CommonJS facade (commonjs-interop.ts) must know the names before the
// module runs.
import type { Asked } from "./commonjs-interop.js";

/**
 * The names `source` imports (or re-exports) from `specifier`: "default" for a default import,
 * "all" for a namespace import, `export *`, or when no static statement naming it can be read
 * (a dynamic import(), a quoted name rt does not parse): then every key is needed.
 */
export function askedOf(source: string, specifier: string): Asked {
  const escaped = specifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // `import` or `export`, a clause without quotes or parentheses (not import()), `from`, the specifier.
  const statement = new RegExp(String.raw`\b(import|export)(\s*[^;'"\x60()]*?\s*from\s*|\s*)(["'])${escaped}\3`, "g");
  const names = new Set<string>();
  let found = false;
  for (const [, keyword, between] of source.matchAll(statement)) {
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
      if (keyword === "export" || !/^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$\u200c\u200d]*$/u.test(head)) return "all";
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
