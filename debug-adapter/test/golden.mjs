// Golden files for what the adapter answers: ids and paths normalised, so a change in what a user
// would see (a frame, a line, a column, a value) fails the test. UPDATE_GOLDEN=1 rewrites them; a
// mismatch writes <name>.actual next to the golden file.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURES } from "./dap.mjs";

const DIR = fileURLToPath(new URL("./golden/", import.meta.url));

export function normalise(value) {
  return JSON.stringify(
    value,
    (key, inner) => {
      if (["id", "frameId", "variablesReference"].includes(key) && typeof inner === "number") return inner === 0 ? 0 : "<id>";
      if (typeof inner === "string") return inner.split(FIXTURES).join("<fixtures>");
      return inner;
    },
    2,
  );
}

export function matchGolden(name, value) {
  const file = path.join(DIR, `${name}.txt`);
  const actual = `${typeof value === "string" ? value : normalise(value)}\n`;
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) {
    if (process.env.CI === "true" && !existsSync(file)) throw new Error(`golden file ${file} is missing`);
    writeFileSync(file, actual);
    return;
  }
  const expected = readFileSync(file, "utf8");
  if (expected !== actual) writeFileSync(`${file}.actual`, actual);
  else rmSync(`${file}.actual`, { force: true });
  assert.equal(actual, expected, `${name}: differs from ${file} (see ${file}.actual; UPDATE_GOLDEN=1 to accept)`);
}
