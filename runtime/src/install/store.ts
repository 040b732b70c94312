// The auto-install cache, under rt's cache root (shared by every rt process of the user):
//   install/index/<name>.json   what each requested range or tag of a package resolved to, and when
//   install/store/<name>@<version>-<hash>/node_modules/<name>/   one extracted package, named by
//                               its tarball's integrity, with rt-entry.json listing its files
//   install/cacache/            npm's HTTP and tarball cache (pacote's), integrity-checked
// Everything is written to a temporary name and renamed into place, so a concurrent rt process
// sees a whole entry or none. This file is what the program's process reads; it loads nothing.
import { readFileSync, statSync } from "node:fs";
import * as path from "node:path";

/** A range, tag or exact version, resolved. */
export interface Resolution {
  readonly version: string;
  readonly integrity: string;
}

export interface PackageIndex {
  /** Each range or tag, with when the registry was asked (ms since the epoch). */
  readonly ranges: Readonly<Record<string, Resolution & { readonly fetched: number }>>;
}

/** rt-entry.json: each file of the extracted package as [relative path, size, ctime in ms]. */
export interface EntryRecord {
  readonly name: string;
  readonly version: string;
  readonly integrity: string;
  readonly files: ReadonlyArray<readonly [string, number, number]>;
}

export class InstallStore {
  constructor(readonly root: string) {}

  indexFile(name: string): string {
    return path.join(this.root, "index", `${encodeName(name)}.json`);
  }

  entryDir(name: string, { version, integrity }: Resolution): string {
    // The integrity is a digest already ("sha512-<base64>"): its first bytes name the entry.
    const hash = Buffer.from(integrity.slice(integrity.indexOf("-") + 1), "base64")
      .toString("hex")
      .slice(0, 16);
    return path.join(this.root, "store", `${encodeName(name)}@${version}-${hash}`);
  }

  get storeDir(): string {
    return path.join(this.root, "store");
  }

  get cacacheDir(): string {
    return path.join(this.root, "cacache");
  }

  readIndex(name: string): PackageIndex | undefined {
    return readJson(this.indexFile(name)) as PackageIndex | undefined;
  }

  /**
   * True when the entry is there and untouched: every file listed at extraction has the same
   * size and ctime (which any write, chmod or replacement changes, and which a program cannot
   * set back). A tampered or partial entry is fetched again.
   */
  isIntact(name: string, resolution: Resolution): boolean {
    const dir = this.entryDir(name, resolution);
    const record = readJson(path.join(dir, "rt-entry.json")) as EntryRecord | undefined;
    if (!record || record.integrity !== resolution.integrity) return false;
    const packageDir = path.join(dir, "node_modules", name);
    for (const [file, size, ctime] of record.files) {
      const stat = statSync(path.join(packageDir, file), { throwIfNoEntry: false });
      if (!stat || stat.size !== size || stat.ctimeMs !== ctime) return false;
    }
    return true;
  }
}

/** Scoped names keep one directory level: `@scope/name` → `@scope+name`. */
function encodeName(name: string): string {
  return name.replace("/", "+");
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}
