// `rt <file>` and `rt run <file>`.
import { afterPreloads, runEntry } from "../entry.js";
import { prepareRuntime, type Invocation } from "../../register/prepare.js";

export function runFile(file: string, invocation: Invocation): Promise<void> {
  const { values, args } = invocation;
  // The entry follows --preserve-symlinks-main only (--preserve-symlinks is for imports), as in Node.
  const keepPath = values["preserve-symlinks-main"] === true;
  const { loader, entry, hot } = prepareRuntime(invocation, (resolver) => (keepPath ? file : (resolver.resolvePath(file, false) ?? file)));
  loader.markEntry(entry);
  process.argv = [process.execPath, entry, ...args];
  const run = () => afterPreloads(loader, values.preload, () => runEntry(loader, entry));
  return hot ? hot.start(loader, entry, run) : run();
}
