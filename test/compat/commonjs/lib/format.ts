// A module of the "type": "commonjs" project in import-equals-require.ts: `export` compiles to exports.
import path = require("node:path");

export function describe(file: string): string {
  return `${path.basename(file)}: ${typeof module === "object" ? "commonjs" : "module"}`;
}

export const VERSION = 2;
