// A script's lifecycle: `pre<name>`, `<name>` (with the user's arguments appended), `post<name>`,
// each in its own shell (a simple command without one: see shell.ts), in the package's
// directory, with npm's environment for that step.
import type { Manifest } from "./manifest.js";
import { startChild, type ChildRun } from "./process.js";
import { appendArguments, scriptInvocation, type ShellKind } from "./shell.js";
import { scriptEnvironment } from "./environment.js";

export interface Step {
  /** `preclean`, `clean` or `postclean`. */
  readonly name: string;
  /** The script as written in package.json (npm_lifecycle_script). */
  readonly script: string;
  /** What runs and is echoed: the script plus the appended arguments (main step only). */
  readonly command: string;
}

export interface ScriptSettings {
  readonly shell: ShellKind;
  /** The directory of the `node` shim (--rt). */
  readonly shimDir?: string;
}

/** The steps of `name` in `manifest`, which must have that script. */
export function lifecycleSteps(manifest: Manifest, name: string, args: readonly string[], shell: ShellKind): Step[] {
  const steps: Step[] = [];
  const pre = manifest.scripts.get(`pre${name}`);
  if (pre !== undefined) steps.push({ name: `pre${name}`, script: pre, command: pre });
  const main = manifest.scripts.get(name)!;
  steps.push({ name, script: main, command: appendArguments(main, args, shell) });
  const post = manifest.scripts.get(`post${name}`);
  if (post !== undefined) steps.push({ name: `post${name}`, script: post, command: post });
  return steps;
}

export function startStep(manifest: Manifest, step: Step, settings: ScriptSettings, pipe: boolean): ChildRun {
  const env = scriptEnvironment(manifest, { lifecycle: { event: step.name, script: step.script }, shimDir: settings.shimDir });
  return startChild(scriptInvocation(settings.shell, step.command, env), { cwd: manifest.dir, env, pipe });
}
