// `npm run docs` (run by rt, which loads the TypeScript table): writes docs/flags.md from the flag table. With --check it prints the page
// instead, for the test that keeps the committed page current.
import { writeFileSync } from "node:fs";
import { flagReference } from "../src/cli/flag-reference.ts";

const page = flagReference();
if (process.argv.includes("--check")) process.stdout.write(page);
else writeFileSync(new URL("../../docs/flags.md", import.meta.url), page);
