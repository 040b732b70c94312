// `npm run build:platforms -w runtime`: cross-compiles rt's compiled front into every platform
// package (platforms/<os>-<cpu>/bin/), after `npm run build` (the front embeds the flag table).
import path from "node:path";
import { buildPlatforms } from "../native/build.mjs";

try {
  for (const file of buildPlatforms()) console.log(path.relative(process.cwd(), file));
} catch (error) {
  console.error(`rt: ${error.message}`);
  process.exitCode = 1;
}
