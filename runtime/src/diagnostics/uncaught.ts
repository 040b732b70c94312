// What an uncaught exception or unhandled rejection prints: the original source line with a
// caret (Node would show the transpiled line), then the error as util.inspect shows it, exit 1.
import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { throwSiteOf } from "./stack.js";

declare const RT_VERSION: string;

export function installUncaughtReport(): void {
  process.on("uncaughtException", function reportUncaught(error) {
    // A program with its own handler decides for itself, as under Node.
    if (process.listenerCount("uncaughtException") > 1) return;
    const details = inspect(error, { colors: false });
    const site = typeof error === "object" && error !== null ? throwSiteOf(error) : undefined;
    const sourceLine = site && (site.sourceLine ?? readLine(site.file, site.line));
    const header = site && sourceLine !== undefined ? `${site.file}:${site.line}\n${sourceLine}\n${" ".repeat(site.column - 1)}^\n\n` : "";
    process.stderr.write(`${header}${details}\n\nrt v${RT_VERSION} (Node.js ${process.version}, ${process.platform} ${process.arch})\n`);
    process.exit(1);
  });
}

function readLine(file: string, line: number): string | undefined {
  try {
    return readFileSync(file, "utf8").split("\n")[line - 1];
  } catch {
    return undefined;
  }
}
