// --parallel / --sequential: Foreman-style `<label> | <line>`, labels padded to the longest and
// coloured on a terminal. A script's stdout goes to stdout and its stderr to stderr; the status
// line of each step (`Done in 4ms`, `Exited with code 3`, `Signaled: SIGINT`) goes to stderr.
import type { Reporter, StepView } from "../scheduler.js";
import type { Task } from "../workspaces.js";
import { LABEL_COLORS } from "../rules.js";
import { endedText, painter } from "./style.js";
import { writeFully } from "./write.js";

export function foremanReporter(tasks: readonly Task[]): Reporter {
  const width = Math.max(...tasks.map((task) => task.label.length));
  const paints = { stdout: painter(1), stderr: painter(2) };
  return {
    stepStarted(task): StepView {
      const color = LABEL_COLORS[tasks.indexOf(task) % LABEL_COLORS.length]!;
      const label = task.label.padEnd(width);
      const print = (stream: "stdout" | "stderr", line: string) => writeFully(stream === "stdout" ? 1 : 2, `${paints[stream](label, color)} | ${line}\n`);
      return {
        output: (line, stream) => print(stream, line),
        ended: (outcome) => print("stderr", outcome.exitCode === 0 ? `Done in ${Math.round(outcome.ms)}ms` : endedText(outcome)),
      };
    },
    finished() {},
  };
}
