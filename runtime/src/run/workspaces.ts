// Workspaces: the packages of the root's `workspaces` patterns, the ones --filter/--workspaces
// select, and the tasks (package × script) to run with the dependencies between them: a
// package's task waits for the same script in the workspace packages it depends on (all four
// dependency fields, dev dependencies included), through packages that lack the script.
import { existsSync, readdirSync, type Dirent } from "node:fs";
import * as path from "node:path";
import { ProgramError } from "../errors.js";
import { displayPath } from "../text.js";
import { lifecycleSteps, type Step } from "./lifecycle.js";
import { findManifest, noManifestError, packageLabel, readManifest, type Manifest } from "./manifest.js";
import type { ShellKind } from "./shell.js";

export interface Workspace {
  readonly root: Manifest;
  /** The member packages, sorted by directory; just the root when it declares no workspaces. */
  readonly packages: readonly Manifest[];
  readonly declared: boolean;
}

export interface Task {
  readonly manifest: Manifest;
  readonly script: string;
  /** `build`, or `foo:build` when several packages take part. */
  readonly label: string;
  readonly steps: readonly Step[];
  /** Tasks that must end before this one starts. */
  readonly dependencies: Task[];
}

/**
 * The workspace around `cwd`: the nearest package.json that declares `workspaces` and lists the
 * package at `cwd` among them (or is it), else the nearest package.json alone.
 */
export function loadWorkspace(cwd: string): Workspace {
  const nearest = findManifest(cwd);
  if (!nearest) throw noManifestError(cwd);
  for (let dir = nearest.dir; ; dir = path.dirname(dir)) {
    const manifest: Manifest | undefined = dir === nearest.dir ? nearest : readManifest(dir);
    if (manifest?.workspaces) {
      const packages = expandWorkspaces(manifest);
      if (manifest === nearest || packages.some((member) => member.dir === nearest.dir)) return { root: manifest, packages, declared: true };
    }
    if (path.dirname(dir) === dir) return { root: nearest, packages: [nearest], declared: false };
  }
}

function expandWorkspaces(root: Manifest): Manifest[] {
  const patterns = root.workspaces!.map((pattern) => pattern.replaceAll("\\", "/").replace(/^\.\//, "").replace(/\/$/, ""));
  const exclusions = patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => pattern.slice(1));
  const dirs = new Set<string>();
  for (const pattern of patterns.filter((p) => !p.startsWith("!"))) {
    const found = packageDirs(root.dir, pattern);
    if (found.length === 0) {
      throw new ProgramError(
        `Workspace pattern "${pattern}" in ${displayPath(root.file)} matches no package (no ${pattern}/package.json under ${root.dir}); fix or remove it`,
        "ERR_WORKSPACE",
      );
    }
    for (const dir of found) if (!exclusions.some((exclusion) => path.matchesGlob(dir, exclusion))) dirs.add(dir);
  }
  return [...dirs].sort().map((relative) => readManifest(path.join(root.dir, relative))!);
}

/**
 * Directories under `base` (relative, with `/`) that match `pattern` and hold a package.json.
 * A walk from the pattern's literal prefix, as deep as the pattern reaches, skipping
 * node_modules and hidden directories: fs.globSync does the same work but costs ~10 ms to load.
 */
function packageDirs(base: string, pattern: string): string[] {
  const segments = pattern.split("/");
  const literal = segments.findIndex((segment) => /[*?[{]/.test(segment));
  const start = literal === -1 ? pattern : segments.slice(0, literal).join("/");
  const depth = literal === -1 ? 0 : segments.includes("**") ? Infinity : segments.length - literal;
  // `packages/*` (the usual form): every directory one level down matches, no matcher needed.
  const oneLevel = literal === segments.length - 1 && segments[literal] === "*";
  const found: string[] = [];
  const walk = (relative: string, remaining: number): void => {
    const dir = path.join(base, relative);
    const matches = literal === -1 || (oneLevel ? remaining === 0 : path.matchesGlob(relative, pattern));
    if (relative && matches && existsSync(path.join(dir, "package.json"))) found.push(relative);
    if (remaining === 0) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name !== "node_modules" && !entry.name.startsWith("."))
        walk(relative ? `${relative}/${entry.name}` : entry.name, remaining - 1);
    }
  };
  walk(start, depth);
  return found;
}

/**
 * The packages `--filter` patterns select: names as globs (`ba*`, `@scope/*`), `./`-paths as globs
 * on directories (relative to the cwd), and `!pattern` to exclude. Only exclusions: all packages.
 */
export function filterPackages(workspace: Workspace, patterns: readonly string[], cwd: string): Manifest[] {
  const includes = patterns.filter((pattern) => !pattern.startsWith("!"));
  const excludes = patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => pattern.slice(1));
  const selected = workspace.packages.filter(
    (manifest) =>
      (includes.length === 0 || includes.some((pattern) => matches(manifest, pattern, cwd))) && !excludes.some((pattern) => matches(manifest, pattern, cwd)),
  );
  if (selected.length === 0) {
    const names = workspace.packages.map(packageLabel);
    const shown = names.length > 8 ? `${names.slice(0, 8).join(", ")}, …` : names.join(", ");
    throw new ProgramError(`No workspace packages matched the filter "${patterns.join(" ")}" (packages: ${shown})`, "ERR_NO_PACKAGES_MATCHED");
  }
  return selected;
}

function matches(manifest: Manifest, pattern: string, cwd: string): boolean {
  if (/^\.{0,2}[/\\]/.test(pattern) || path.isAbsolute(pattern)) return path.matchesGlob(manifest.dir, path.resolve(cwd, pattern.replaceAll("\\", "/")));
  return manifest.name !== undefined && nameGlob(pattern).test(manifest.name);
}

/** `*` matches any run of characters, `/` included (so `*` takes scoped names too); `?` one character. */
function nameGlob(pattern: string): RegExp {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replaceAll("*", ".*")
    .replaceAll("?", ".");
  return new RegExp(`^${source}$`);
}

export interface TaskOptions {
  /** Each given name is a script name or a glob of script names (`lint:*`). */
  readonly names: readonly string[];
  /** Appended to every task's main step. */
  readonly args: readonly string[];
  readonly shell: ShellKind;
  /** Called for a package that has no script of a given name (--workspaces makes it an error; --filter skips). */
  readonly onMissing: (manifest: Manifest, name: string) => void;
  /** Labels name the package too (`foo:build`). */
  readonly labelPackages: boolean;
}

/** The tasks to run, in package order, with their dependencies; throws on a dependency cycle. */
export function planTasks(workspace: Workspace, selected: readonly Manifest[], options: TaskOptions): Task[] {
  const tasks: Task[] = [];
  for (const manifest of selected) {
    for (const name of options.names) {
      const scripts = scriptsMatching(manifest, name);
      if (scripts.length === 0) options.onMissing(manifest, name);
      for (const script of scripts) {
        const label = options.labelPackages ? `${packageLabel(manifest)}:${script}` : script;
        tasks.push({ manifest, script, label, steps: lifecycleSteps(manifest, script, options.args, options.shell), dependencies: [] });
      }
    }
  }
  linkDependencies(workspace, tasks);
  return tasks;
}

function scriptsMatching(manifest: Manifest, name: string): string[] {
  if (!/[*?]/.test(name)) return manifest.scripts.has(name) ? [name] : [];
  const glob = nameGlob(name);
  return [...manifest.scripts.keys()].filter((script) => glob.test(script));
}

export function missingInPackage(manifest: Manifest, name: string): ProgramError {
  return new ProgramError(
    `Missing "${name}" script in package ${packageLabel(manifest)} (${manifest.dir}); add it, or pass --if-present to skip packages without it`,
    "ERR_SCRIPT_NOT_FOUND",
  );
}

/** No package that --filter selected has any of the scripts. */
export function noneHaveScript(names: readonly string[], selected: readonly Manifest[], filter: readonly string[]): ProgramError {
  const packages = `${selected.length} ${selected.length === 1 ? "package" : "packages"}`;
  return new ProgramError(`Script "${names.join(" ")}" not found in ${packages} matching "${filter.join(" ")}"`, "ERR_SCRIPT_NOT_FOUND");
}

function linkDependencies(workspace: Workspace, tasks: Task[]): void {
  const byName = new Map(workspace.packages.filter((m) => m.name !== undefined).map((m) => [m.name!, m]));
  const taskOf = new Map(tasks.map((task) => [`${task.manifest.dir}\0${task.script}`, task]));
  for (const task of tasks) {
    // The nearest tasks of the same script among the package's workspace dependencies.
    const seen = new Set<Manifest>([task.manifest]);
    const visit = (manifest: Manifest): void => {
      for (const name of manifest.dependsOn) {
        const dependency = byName.get(name);
        if (!dependency || seen.has(dependency)) continue;
        seen.add(dependency);
        const found = taskOf.get(`${dependency.dir}\0${task.script}`);
        if (found) task.dependencies.push(found);
        else visit(dependency);
      }
    };
    visit(task.manifest);
  }
  assertAcyclic(tasks);
}

function assertAcyclic(tasks: readonly Task[]): void {
  const state = new Map<Task, "visiting" | "done">();
  const trail: Task[] = [];
  const visit = (task: Task): void => {
    if (state.get(task) === "done") return;
    if (state.get(task) === "visiting") {
      const cycle = [...trail.slice(trail.indexOf(task)), task].map((t) => packageLabel(t.manifest));
      throw new ProgramError(
        `Dependency cycle between workspace packages: ${cycle.join(" → ")}; "${task.script}" cannot run in dependency order`,
        "ERR_WORKSPACE_CYCLE",
      );
    }
    state.set(task, "visiting");
    trail.push(task);
    for (const dependency of task.dependencies) visit(dependency);
    trail.pop();
    state.set(task, "done");
  };
  for (const task of tasks) visit(task);
}

/** Dependencies first, otherwise in the given order (for --sequential). */
export function dependencyOrder(tasks: readonly Task[]): Task[] {
  const ordered: Task[] = [];
  const placed = new Set<Task>();
  const place = (task: Task): void => {
    if (placed.has(task)) return;
    placed.add(task);
    for (const dependency of task.dependencies) place(dependency);
    ordered.push(task);
  };
  for (const task of tasks) place(task);
  return ordered;
}
