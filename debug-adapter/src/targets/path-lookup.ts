// A bare program name as a shell finds it on PATH (with %PATHEXT% on Windows): the adapter's
// runtimeExecutable and the extension's rt.runtimePath take names the same way.
import { accessSync, constants } from "node:fs";
import * as path from "node:path";

/** The executable file `name` names on PATH, or undefined. */
export function lookUpOnPath(name: string): string | undefined {
  const extensions = process.platform === "win32" ? (process.env.PATHEXT ?? ".EXE;.CMD").split(";") : [""];
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    for (const extension of extensions) {
      const file = path.join(dir, name + extension);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}
