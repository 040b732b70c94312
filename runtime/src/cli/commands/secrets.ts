// `rt secrets get|set|delete|list`: the credential store for shell scripts and people, through
// the same module as rt.secrets. A value is never taken from argv (other users see it in `ps`):
// `set` reads it from stdin, or from a prompt that does not echo when stdin is a terminal.
import { fstatSync, writeSync } from "node:fs";
import { ProgramError, UsageError } from "../../errors.js";
import { loadSecrets } from "../../secrets/load.js";
import { display, type ParsedArgs } from "../../flags/parse.js";
import { flagByName } from "../../flags/table.js";
import { exactArguments } from "../exact-argv.js";

/** A subcommand: its arguments, the flags it takes besides --help, and what it does. */
interface SubcommandSpec {
  readonly args: readonly string[];
  readonly flags: readonly string[];
  readonly help: string;
}

const SUBCOMMANDS = {
  get: { args: ["service", "name"], flags: [], help: "Print the value stored for <service> and <name>, exactly (a newline only on a terminal)." },
  set: {
    args: ["service", "name"],
    flags: ["allow-empty"],
    help: "Store the value read from stdin, exactly as given, or typed at a prompt that does not echo when stdin is a terminal. Replaces a previous value. An empty value is refused unless --allow-empty is given.",
  },
  delete: { args: ["service", "name"], flags: [], help: "Remove the value stored for <service> and <name>." },
  list: {
    args: ["service"],
    flags: ["json"],
    help: 'Print the names stored for <service>, one per line (never values); a name with a control character or a leading " as a JSON string.',
  },
} as const satisfies Record<string, SubcommandSpec>;
type Subcommand = keyof typeof SUBCOMMANDS;

const USAGE =
  "rt secrets " +
  Object.keys(SUBCOMMANDS)
    .map((name) => usage(name as Subcommand, false))
    .join(" | ");

export function secretsCommand(subcommand: string | undefined, args: readonly string[], parsed: ParsedArgs): Promise<void> {
  const known = subcommand !== undefined && Object.hasOwn(SUBCOMMANDS, subcommand) ? (subcommand as Subcommand) : undefined;
  if (parsed.values.help === true) return writeOut(known ? subcommandHelp(known) : secretsHelp());
  if (subcommand === undefined) throw new UsageError(`rt secrets needs a subcommand: ${USAGE}`);
  if (!known) throw new UsageError(`unknown subcommand "rt secrets ${subcommand}": ${USAGE}`);
  const { args: expected, flags }: SubcommandSpec = SUBCOMMANDS[known];
  for (const name of parsed.given) {
    if (!flags.includes(name)) {
      const takes = flags.length ? `its flags: ${flags.map((flag) => `--${flag}`).join(", ")}` : "it takes no flags";
      throw new UsageError(`rt secrets ${known} does not take ${display(flagByName(name)!)} (${takes})`);
    }
  }
  if (known === "set" && args.length > expected.length) {
    // The extra argument is most likely the value: never repeat it.
    throw new UsageError(
      "rt secrets set takes the value from stdin or a prompt, never from the command line (other users can see it in `ps`): printf '%s' \"$VALUE\" | rt secrets set <service> <name>",
    );
  }
  if (args.length !== expected.length) {
    throw new UsageError(
      `rt secrets ${known} takes ${expected.map((name) => `<${name}>`).join(" ")}, got ${args.length} argument${args.length === 1 ? "" : "s"}`,
    );
  }
  const options = { json: parsed.values.json === true, allowEmpty: parsed.values["allow-empty"] === true };
  // Exact, so that names whose bytes are not UTF-8 are refused rather than merged into one.
  const [service, name] = exactArguments(args);
  return run(known, service!, name!, options).catch(userFacing);
}

function usage(subcommand: Subcommand, withFlags = true): string {
  const { args, flags }: SubcommandSpec = SUBCOMMANDS[subcommand];
  const flagText = withFlags ? flags.map((flag) => ` [--${flag}]`).join("") : "";
  return `${subcommand} ${args.map((name) => `<${name}>`).join(" ")}${flagText}`;
}

function subcommandHelp(subcommand: Subcommand): string {
  const { flags, help }: SubcommandSpec = SUBCOMMANDS[subcommand];
  const lines = [`Usage: rt secrets ${usage(subcommand)}`, "", help];
  if (flags.length) lines.push("", "Flags:", ...flags.map((name) => `  --${name.padEnd(14)}${flagByName(name)!.help}`));
  return `${lines.join("\n")}\n`;
}

function secretsHelp(): string {
  const rows = Object.entries(SUBCOMMANDS).map(
    ([name, { help }]) => `  rt secrets ${usage(name as Subcommand).padEnd(40)}${help.split(". ")[0]!.replace(/\.$/, "")}`,
  );
  return `Usage: rt secrets <subcommand> ...\n\nCredentials in the OS credential store. A value never comes from the command line.\n\n${rows.join("\n")}\n\nrt secrets <subcommand> --help shows one subcommand's help.\n`;
}

async function run(subcommand: Subcommand, service: string, name: string, options: { json: boolean; allowEmpty: boolean }): Promise<void> {
  const module = loadSecrets();
  const { secrets } = module;
  switch (subcommand) {
    case "get": {
      const value = await secrets.get(service, name);
      if (value === null) throw notFound(service, name);
      // Exactly the value, as `secret-tool lookup` prints it; a newline only for a person.
      return writeOut(process.stdout.isTTY ? `${value}\n` : value);
    }
    case "set": {
      module.readPair("set", service, name); // a mistake in the names is reported before any typing
      const typed = process.stdin.isTTY;
      const value = typed ? await promptHidden(`Value for ${service}/${name}: `, service, name) : await readStdin();
      if (value === "" && !options.allowEmpty) throw emptyValue(service, name, typed);
      await secrets.set(service, name, value);
      return;
    }
    case "delete":
      if (!(await secrets.delete(service, name))) throw notFound(service, name);
      return;
    case "list": {
      const names = await module.listNames(service);
      return writeOut(options.json ? `${JSON.stringify(names)}\n` : names.map((account) => `${listed(account)}\n`).join(""));
    }
  }
}

/**
 * A name as one line of the listing: as it is, unless it could be mistaken for other lines or
 * could drive the terminal (a newline, any control character) or starts with a quote; then as
 * a JSON string, with DEL and C1 controls escaped too, so every line is exactly one name.
 */
function listed(name: string): string {
  if (!/^"|[\u0000-\u001f\u007f-\u009f]/.test(name)) return name;
  return JSON.stringify(name).replace(/[\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Output that must arrive whole: a failed write (the reader closed the pipe, the disk is full)
 * is one line and exit 1, never a stack or a silent success.
 */
function writeOut(text: string): Promise<void> {
  const stdout = process.stdout;
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException): void => {
      const reason =
        error.code === "EPIPE" ? "the reader closed the pipe" : error.code === "ENOSPC" ? "no space left on the device" : (error.code ?? error.message);
      reject(new ProgramError(`could not write to stdout: ${reason}`, "ERR_SECRETS_OUTPUT"));
    };
    stdout.once("error", fail);
    try {
      stdout.write(text, (error) => (error ? fail(error) : resolve()));
    } catch (error) {
      fail(error as NodeJS.ErrnoException);
    }
  });
}

/** An empty value would silently replace a stored secret (an unset variable, a closed stdin). */
function emptyValue(service: string, name: string, typed: boolean): ProgramError {
  const pair = `${shellWord(service)} ${shellWord(name)}`;
  const what = typed ? "nothing was typed" : "stdin was empty (an empty pipe, a closed stdin or /dev/null)";
  return new ProgramError(
    `${what}: nothing was stored. To store an empty value on purpose: rt secrets set --allow-empty ${pair} < /dev/null; to remove the secret: rt secrets delete ${pair}`,
    "ERR_SECRETS_EMPTY",
  );
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

function notFound(service: string, name: string): ProgramError {
  return new ProgramError(`no secret stored for service "${service}", name "${name}"`, "ERR_SECRETS_NOT_FOUND");
}

/** The module's argument errors are command-line mistakes (exit 2); store errors exit 1. */
function userFacing(error: unknown): never {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (error instanceof TypeError && (code === "ERR_INVALID_ARG_TYPE" || code === "ERR_INVALID_ARG_VALUE")) throw new UsageError(error.message);
  if (error instanceof Error && typeof code === "string" && code.startsWith("ERR_SECRETS_")) throw new ProgramError(error.message, code);
  throw error;
}

/**
 * All of stdin, exactly (no newline stripped), as UTF-8 text; the buffers are zeroed after.
 * A stdin that cannot be read (a directory: `< /tmp`) stores nothing.
 */
async function readStdin(): Promise<string> {
  const unreadable = (reason: string) => new ProgramError(`cannot read the value from stdin: ${reason}; nothing was stored`, "ERR_SECRETS_NO_INPUT");
  // Node reads a directory on fd 0 as an empty stream: ask the descriptor itself.
  if (fstatSync(0).isDirectory()) throw unreadable("it is a directory");
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  } catch (error) {
    for (const chunk of chunks) chunk.fill(0);
    throw unreadable((error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
  return decodeValue(chunks, "the value on stdin");
}

/** The bytes as UTF-8 text, exactly; every buffer is zeroed, whatever happens. */
function decodeValue(chunks: readonly Buffer[], what: string): string {
  const bytes = Buffer.concat(chunks);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ProgramError(`${what} is not UTF-8 text: rt secrets stores text`, "ERR_SECRETS_NOT_TEXT");
  } finally {
    for (const chunk of chunks) chunk.fill(0);
    bytes.fill(0);
  }
}

/** Signals that end rt while it waits at the prompt: each restores the terminal first. */
const PROMPT_SIGNALS = ["SIGINT", "SIGQUIT", "SIGTERM", "SIGHUP"] as const;

/**
 * One line typed at the terminal, read the way secret-tool (getpass) reads it: the terminal stays
 * in canonical mode with only echo turned off, so the kernel edits the line (Backspace, Ctrl-U,
 * Ctrl-W; TAB is a character; Ctrl-D hands over what is typed so far) and what is stored is what
 * the line holds at Enter. Unlike secret-tool, Ctrl-C cancels (secret-tool stores it as a
 * character), and so does Ctrl-D on an empty line (secret-tool stores ""). The terminal's
 * settings are restored on every way out.
 */
async function promptHidden(prompt: string, service: string, name: string): Promise<string> {
  const saved = stty(["-g"], service, name).trim();
  stty(["-echo"], service, name);
  const restore = (): void => void runStty([saved]);
  const onSignal = (signal: NodeJS.Signals): void => {
    restore();
    try {
      writeSync(2, "\nerror: cancelled: nothing was stored\n");
    } catch {
      // The terminal is gone (SIGHUP): nobody reads the line.
    }
    for (const each of PROMPT_SIGNALS) process.removeListener(each, onSignal);
    // Ended by the signal itself, so a calling shell script stops too (exit status 128 + signal).
    process.kill(process.pid, signal);
  };
  for (const signal of PROMPT_SIGNALS) process.on(signal, onSignal);
  process.stderr.write(prompt);
  try {
    const chunks = await readLine(process.stdin);
    // Enter was not echoed: end the prompt's line.
    process.stderr.write("\n");
    if (!chunks) throw new ProgramError("the input ended (Ctrl-D) before anything was typed: nothing was stored", "ERR_SECRETS_CANCELLED");
    const text = decodeValue(chunks, "the value typed");
    return text.endsWith("\n") ? text.slice(0, -1) : text;
  } finally {
    for (const signal of PROMPT_SIGNALS) process.removeListener(signal, onSignal);
    restore();
  }
}

/**
 * The bytes of one line (up to and with its newline, or up to the end of the input), or
 * undefined when the input ends before any byte: in canonical mode each read returns at most one
 * line, and Ctrl-D on an empty line reads nothing (the end of the input).
 */
function readLine(input: NodeJS.ReadStream): Promise<Buffer[] | undefined> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    const finish = (error?: Error): void => {
      input.off("data", onData).off("end", onEnd).off("error", finish);
      input.pause();
      if (error) {
        for (const chunk of chunks) chunk.fill(0);
        reject(
          new ProgramError(
            `cannot read the value from the terminal: ${(error as NodeJS.ErrnoException).code ?? error.message}; nothing was stored`,
            "ERR_SECRETS_NO_INPUT",
          ),
        );
      } else resolve(chunks.length ? chunks : undefined);
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      if (chunk.includes(0x0a)) finish();
    };
    const onEnd = (): void => finish();
    input.on("data", onData).once("end", onEnd).once("error", finish);
    input.resume();
  });
}

/** stty on the terminal (stdin). child_process is required here, not imported: the CLI bundle loads its imports at every start (~4 ms for this one). */
function runStty(args: readonly string[]) {
  const { spawnSync } = require("node:child_process") as typeof import("node:child_process");
  return spawnSync("stty", args, { stdio: ["inherit", "pipe", "pipe"], encoding: "utf8" });
}

/** Runs stty on the terminal (stdin); a failure means the value could show as it is typed. */
function stty(args: readonly string[], service: string, name: string): string {
  const result = runStty(args);
  if (result.status === 0) return result.stdout;
  const reason = result.error ? (result.error as NodeJS.ErrnoException).code : result.stderr.trim();
  throw new ProgramError(
    `cannot turn off echo on this terminal (stty: ${reason}), so the value would show as it is typed; nothing was stored. Give it on stdin instead: printf '%s' "$VALUE" | rt secrets set ${shellWord(service)} ${shellWord(name)}`,
    "ERR_SECRETS_NO_INPUT",
  );
}
