// The .vsix packages scripts/package.mjs writes: one per platform the runtime has a platform
// package for (VS Code's target names are npm's <os>-<cpu> for these), named as vsce names them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { platformPackages } from "../../runtime/native/build.mjs";

export const EXTENSION = fileURLToPath(new URL("..", import.meta.url));

/** linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64. */
export const VSIX_TARGETS = platformPackages().map(({ name }) => name);

/** The .vsix for `target` (this platform's by default). */
export function vsixPath(target = `${process.platform}-${process.arch}`) {
  const { name, version } = JSON.parse(readFileSync(path.join(EXTENSION, "package.json"), "utf8"));
  return path.join(EXTENSION, `${name}-${target}-${version}.vsix`);
}

/** The folder packed into the .vsix for `target`. */
export function stagedFolder(target = `${process.platform}-${process.arch}`) {
  return path.join(EXTENSION, ".vsix", target);
}
