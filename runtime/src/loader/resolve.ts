// File resolution rt adds on top of Node's: extensionless and directory imports in
// `--extension-order`, `.js` specifiers naming `.ts` files, tsconfig `paths`/`baseUrl`, and
// `--main-fields` for packages without `exports`. Bare specifiers otherwise go to Node.
import { realpathSync, statSync } from "node:fs";
import * as path from "node:path";
import { cannotRead, parseJson, readProjectFile } from "../data-files.js";
import type { TsconfigPaths } from "../transpile/tsconfig.js";

export interface ResolveSettings {
  readonly extensions: readonly string[];
  readonly mainFields?: readonly string[];
  readonly preserveSymlinks: boolean;
  readonly tsconfigPaths?: TsconfigPaths;
}

// A `.js` (etc.) specifier may name the TypeScript file it compiles from.
const SOURCE_FOR_OUTPUT: Readonly<Record<string, readonly string[]>> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};

function isFile(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}

function isDirectory(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

export class FileResolver {
  constructor(private readonly settings: ResolveSettings) {}

  /**
   * The file an absolute path names, trying extensions, `.js`→`.ts` and directory entries; a
   * trailing slash names a directory only. Symlinks resolve to the real path unless kept.
   */
  resolvePath(target: string, keepSymlinks = this.settings.preserveSymlinks): string | undefined {
    const isDirectoryPath = target.endsWith("/") || target.endsWith(path.sep);
    const found = isDirectoryPath ? this.asDirectory(target) : (this.asFile(target) ?? this.asDirectory(target));
    if (!found || keepSymlinks) return found;
    return realpathSync.native(found);
  }

  /** tsconfig `paths` (longest matching pattern first), then `baseUrl`. */
  resolveTsconfigPath(specifier: string): string | undefined {
    const config = this.settings.tsconfigPaths;
    if (!config) return undefined;
    let best: { pattern: string; star: string } | undefined;
    for (const pattern of Object.keys(config.paths)) {
      const star = pattern.indexOf("*");
      if (star === -1) {
        if (pattern === specifier) {
          best = { pattern, star: "" };
          break;
        }
        continue;
      }
      const prefix = pattern.slice(0, star);
      const suffix = pattern.slice(star + 1);
      if (specifier.startsWith(prefix) && specifier.endsWith(suffix) && specifier.length >= prefix.length + suffix.length) {
        if (!best || prefix.length > best.pattern.indexOf("*")) {
          best = { pattern, star: specifier.slice(prefix.length, specifier.length - suffix.length) };
        }
      }
    }
    if (best) {
      for (const target of config.paths[best.pattern] ?? []) {
        const found = this.resolvePath(path.resolve(config.base, target.replace("*", best.star)));
        if (found) return found;
      }
    }
    return config.baseUrl ? this.resolvePath(path.resolve(config.baseUrl, specifier)) : undefined;
  }

  /** With `--main-fields`: the entry of a package that has no `exports`, by the first field it has. */
  resolveMainField(specifier: string, fromDir: string): string | undefined {
    const fields = this.settings.mainFields;
    if (!fields) return undefined;
    const name = packageName(specifier);
    if (!name || name !== specifier) return undefined;
    for (let dir = fromDir; ; dir = path.dirname(dir)) {
      const packageDir = path.join(dir, "node_modules", name);
      const manifest = readPackageJson(path.join(packageDir, "package.json"));
      if (manifest) {
        if (manifest.exports !== undefined) return undefined;
        for (const field of fields) {
          const entry = manifest[field];
          if (typeof entry === "string") {
            const found = this.resolvePath(path.resolve(packageDir, entry));
            if (found) return found;
          }
        }
        return undefined;
      }
      if (path.dirname(dir) === dir) return undefined;
    }
  }

  private asFile(target: string): string | undefined {
    if (isFile(target)) return target;
    for (const ext of this.settings.extensions) if (isFile(target + ext)) return target + ext;
    const ext = path.extname(target);
    for (const sourceExt of SOURCE_FOR_OUTPUT[ext] ?? []) {
      const candidate = target.slice(0, -ext.length) + sourceExt;
      if (isFile(candidate)) return candidate;
    }
    return undefined;
  }

  private asDirectory(target: string): string | undefined {
    if (!isDirectory(target)) return undefined;
    const main = readPackageJson(path.join(target, "package.json"))?.main;
    if (typeof main === "string") {
      const found = this.asFile(path.resolve(target, main)) ?? this.asIndex(path.resolve(target, main));
      if (found) return found;
    }
    return this.asIndex(target);
  }

  private asIndex(dir: string): string | undefined {
    for (const ext of this.settings.extensions) {
      const candidate = path.join(dir, `index${ext}`);
      if (isFile(candidate)) return candidate;
    }
    return undefined;
  }
}

export function packageName(specifier: string): string | undefined {
  const parts = specifier.split("/");
  if (specifier.startsWith("@")) return parts.length >= 2 ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0] || undefined;
}

/**
 * A package.json's fields; undefined when there is none. One that cannot be read (a symbolic
 * link loop, no permission) or is not JSON is the user's to fix: one line, file:line:column.
 * (Node would stop on it too, with its own stack.)
 */
export function readPackageJson(file: string): Record<string, unknown> | undefined {
  const text = readProjectFile(file, cannotRead(file, "ERR_PACKAGE_JSON"), { skipDirectory: true });
  if (text === undefined) return undefined;
  const value = parseJson(file, text, "ERR_PACKAGE_JSON");
  return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}
