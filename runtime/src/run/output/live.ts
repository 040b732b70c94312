// Workspace scripts on a terminal: a live view, redrawn in place inside synchronized-update
// frames (\e[?2026h … \e[?2026l, so the terminal never shows half a frame). Each running step
// shows a header `<package> <step> $ <command>`, its last --elide-lines lines and `└─ Running...`.
// A step that ends is printed once, for good, above the live part (its last --elide-lines lines,
// or every line when it failed, so an error is never cut), with `└─ Done in 5 ms` or
// `└─ Exited with code 2`. The live part is cut to the terminal's size (long lines shortened,
// fewer lines per step when many run), because rows that scroll off cannot be redrawn.
import { stripVTControlCharacters } from "node:util";
import { packageLabel } from "../manifest.js";
import type { Outcome } from "../process.js";
import type { Reporter, StepView } from "../scheduler.js";
import { BOLD, CYAN, DIM, endedText, painter, RED } from "./style.js";
import { writeFully } from "./write.js";

interface Entry {
  readonly name: string;
  readonly step: string;
  readonly command: string;
  readonly lines: string[];
  outcome?: Outcome;
}

const REDRAW_MS = 30;

export function liveReporter(elideLines: number): Reporter {
  const paint = painter(1);
  let entries: Entry[] = [];
  let drawnRows = 0;
  let timer: NodeJS.Timeout | undefined;

  const header = (entry: Entry, width: number): string => {
    const room = width - `${entry.name} ${entry.step} $ `.length;
    return `${paint(entry.name, BOLD)} ${entry.step} $ ${paint(room < entry.command.length ? entry.command.slice(0, Math.max(0, room - 1)) + "…" : entry.command, DIM)}\n`;
  };
  const row = (text: string, width: number): string => `${paint("│", CYAN)} ${text.length > width - 2 ? text.slice(0, Math.max(0, width - 3)) + "…" : text}\n`;
  const status = (entry: Entry): string => {
    const outcome = entry.outcome;
    if (!outcome) return `${paint("└─", CYAN)} ${paint("Running...", CYAN)}\n`;
    if (outcome.exitCode === 0) return `${paint("└─", CYAN)} ${paint(`Done in ${Math.round(outcome.ms)} ms`, CYAN)}\n`;
    return `${paint("└─", RED)} ${paint(endedText(outcome), RED)}\n`;
  };
  /** A step's block showing at most `shown` of its last lines (Infinity: all). */
  const block = (entry: Entry, shown: number, width: number): string => {
    const hidden = Math.max(0, entry.lines.length - shown);
    const visible = hidden ? entry.lines.slice(hidden) : entry.lines;
    return header(entry, width) + (hidden ? row(`[${hidden} lines elided]`, width) : "") + visible.map((line) => row(line, width)).join("") + status(entry);
  };

  const draw = (): void => {
    timer = undefined;
    const width = process.stdout.columns || 80;
    const rows = Math.max(3, (process.stdout.rows || 24) - 1);
    let frame = drawnRows > 0 ? "\x1b[0G\x1b[K" + "\x1b[1A\x1b[K".repeat(drawnRows) : "";
    // Ended steps leave the live part for good; a committed block may be as long as it needs.
    for (const entry of entries.filter((e) => e.outcome)) {
      frame += block(entry, entry.outcome!.exitCode !== 0 || elideLines === 0 ? Infinity : elideLines, Infinity);
    }
    entries = entries.filter((entry) => !entry.outcome);
    const live = fitLive(entries, elideLines === 0 ? Infinity : elideLines, rows);
    const text = live.entries.map((entry) => block(entry, live.linesEach, width)).join("") + (live.more ? `… ${live.more} more running\n` : "");
    drawnRows = text.split("\n").length - 1;
    writeFully(1, `\x1b[?2026h${frame}${text}\x1b[?2026l`);
  };
  const schedule = (): void => {
    timer ??= setTimeout(draw, REDRAW_MS);
  };

  return {
    stepStarted(task, step): StepView {
      const entry: Entry = { name: packageLabel(task.manifest), step: step.name, command: step.command, lines: [] };
      entries.push(entry);
      schedule();
      return {
        output(line) {
          // Colours and cursor movement would break the layout; a carriage return starts the line over.
          entry.lines.push(stripVTControlCharacters(line.slice(line.lastIndexOf("\r") + 1)).replaceAll("\t", "  "));
          schedule();
        },
        ended(outcome) {
          entry.outcome = outcome;
          schedule();
        },
      };
    },
    finished() {
      clearTimeout(timer);
      draw();
    },
  };
}

/** How many running steps, and how many lines of each, fit in `rows` (each also takes a header and a status row). */
function fitLive(entries: readonly Entry[], linesEach: number, rows: number): { entries: readonly Entry[]; linesEach: number; more: number } {
  const height = (each: number, list: readonly Entry[]) =>
    list.reduce((sum, entry) => sum + 2 + Math.min(entry.lines.length, each) + (entry.lines.length > each ? 1 : 0), 0);
  let each = linesEach;
  while (each > 0 && height(each, entries) > rows) each = Math.min(each, Math.max(...entries.map((e) => e.lines.length))) - 1;
  if (height(each, entries) <= rows) return { entries, linesEach: each, more: 0 };
  const fitting = Math.max(0, Math.floor((rows - 1) / 3));
  return { entries: entries.slice(0, fitting), linesEach: 0, more: entries.length - fitting };
}
