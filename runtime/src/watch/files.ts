// Watches a growing set of files for --watch and --hot. Each file is watched through its
// directory: editors often save by writing a new file and renaming it over the old one, which
// a watch on the file itself would lose. Files inside node_modules are not watched.
import { watch, type FSWatcher } from "node:fs";
import * as path from "node:path";

/** Quiet time after the last change before reacting: one save often makes several events. */
const DEBOUNCE_MS = 20;

export class FileWatcher {
  private readonly files = new Set<string>();
  private readonly directories = new Map<string, FSWatcher | undefined>();
  private readonly changed = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  /** `onChange` receives the changed files once they have been quiet for DEBOUNCE_MS. */
  constructor(private readonly onChange: (files: string[]) => void) {}

  add(file: string): void {
    if (this.files.has(file) || isPackageFile(file)) return;
    this.files.add(file);
    const directory = path.dirname(file);
    if (this.directories.has(directory)) return;
    let watcher: FSWatcher | undefined;
    try {
      watcher = watch(directory, (_event, name) => name && this.noticed(path.join(directory, name)));
      // A directory removed while watched: its files simply stop reporting.
      watcher.on("error", () => this.directories.set(directory, undefined));
    } catch {
      // The directory does not exist (yet): nothing there to watch.
    }
    this.directories.set(directory, watcher);
  }

  close(): void {
    clearTimeout(this.timer);
    for (const watcher of this.directories.values()) watcher?.close();
  }

  private noticed(file: string): void {
    if (!this.files.has(file)) return;
    this.changed.add(file);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const files = [...this.changed];
      this.changed.clear();
      this.onChange(files);
    }, DEBOUNCE_MS);
  }
}

export function isPackageFile(file: string): boolean {
  return file.includes(`${path.sep}node_modules${path.sep}`);
}

/** Clears a terminal (screen and scrollback), unless --no-clear-screen or output is not a terminal. */
export function clearScreen(noClearScreen: boolean): void {
  if (!noClearScreen && process.stdout.isTTY) process.stdout.write("\x1b[2J\x1b[3J\x1b[H");
}
