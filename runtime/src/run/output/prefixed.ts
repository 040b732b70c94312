// Workspace scripts off a terminal: every line of every step on stdout as `<package> <step>: <line>`,
// then `<package> <step>: Exited with code N`, as lines arrive (Bun's format).
import type { Reporter, StepView } from "../scheduler.js";
import { packageLabel } from "../manifest.js";
import { endedText } from "./style.js";
import { writeFully } from "./write.js";

export function prefixedReporter(): Reporter {
  return {
    stepStarted(task, step): StepView {
      const prefix = `${packageLabel(task.manifest)} ${step.name}: `;
      return {
        output: (line) => writeFully(1, `${prefix}${line}\n`),
        ended: (outcome) => writeFully(1, `${prefix}${endedText(outcome)}\n`),
      };
    },
    finished() {},
  };
}
