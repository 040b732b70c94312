// One script (with its pre/post steps), project binary or system command, sharing rt's
// terminal: `$ <command>` on stderr before each step (unless --silent), the step's own output
// untouched, and on failure `error: script "<step>" exited with code N`; rt exits with that code.
// Writes go straight to fd 2: creating process.stderr's stream would cost this path ~1 ms.
import { scriptEnvironment } from "./environment.js";
import { lifecycleSteps, startStep, type ScriptSettings } from "./lifecycle.js";
import type { Manifest } from "./manifest.js";
import { exitCodeOfSignal, receivedSignal, startChild, type Outcome } from "./process.js";
import { directLaunch } from "./shell.js";
import { BOLD, DIM, MAGENTA, painter, RED, type Paint } from "./output/style.js";
import { writeFully } from "./output/write.js";

export interface ForegroundSettings extends ScriptSettings {
  readonly silent: boolean;
}

/** Runs `name` of `manifest` and resolves to rt's exit code. */
export async function runScriptInForeground(manifest: Manifest, name: string, args: readonly string[], settings: ForegroundSettings): Promise<number> {
  const paint = settings.silent ? undefined : painter(2);
  for (const step of lifecycleSteps(manifest, name, args, settings.shell)) {
    // Bun's bytes: `$` dim magenta, the command dim bold.
    if (paint) writeFully(2, `${paint.reset}${paint("$", DIM, MAGENTA)} ${paint(step.command, DIM, BOLD)}\n`);
    const outcome = await startStep(manifest, step, settings, false).outcome;
    if (outcome.exitCode !== 0) {
      if (paint) writeFully(2, failureLine(paint, step.name, outcome));
      return outcome.exitCode;
    }
    const signal = receivedSignal();
    if (signal) return exitCodeOfSignal(signal);
  }
  return 0;
}

/** Runs a binary or system command with `args` in the cwd and resolves to its exit code. */
export async function runExecutableInForeground(
  file: string,
  args: readonly string[],
  manifest: Manifest | undefined,
  shimDir: string | undefined,
): Promise<number> {
  const env = scriptEnvironment(manifest, { shimDir });
  return (await startChild(directLaunch(file, args), { cwd: process.cwd(), env, pipe: false }).outcome).exitCode;
}

function failureLine(paint: Paint, step: string, outcome: Outcome): string {
  const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
  return `${paint.reset}${paint("error", RED)}${paint(":", DIM)} script ${paint(`"${step}"`, BOLD)} ${how}${paint.reset}\n`;
}
