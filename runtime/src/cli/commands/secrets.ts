// `rt secrets get|set|delete|list`: the credential store for shell scripts and people, through
// the same module as rt.secrets. A value is never taken from argv (other users see it in `ps`):
// `set` reads it from stdin, or from a prompt that does not echo when stdin is a terminal.
import { ProgramError, UsageError } from "../../errors.js";
import { loadSecrets } from "../../secrets/load.js";

const USAGE = "rt secrets get <service> <name> | set <service> <name> | delete <service> <name> | list <service>";
const ARGUMENTS = { get: ["service", "name"], set: ["service", "name"], delete: ["service", "name"], list: ["service"] } as const;
type Subcommand = keyof typeof ARGUMENTS;

export function secretsCommand(subcommand: string | undefined, args: readonly string[]): Promise<void> {
  if (subcommand === undefined) throw new UsageError(`rt secrets needs a subcommand: ${USAGE}`);
  if (!Object.hasOwn(ARGUMENTS, subcommand)) throw new UsageError(`unknown subcommand "rt secrets ${subcommand}": ${USAGE}`);
  const expected = ARGUMENTS[subcommand as Subcommand];
  if (subcommand === "set" && args.length > expected.length) {
    // The extra argument is most likely the value: never repeat it.
    throw new UsageError("rt secrets set takes the value from stdin or a prompt, never from the command line (other users can see it in `ps`): printf '%s' \"$VALUE\" | rt secrets set <service> <name>");
  }
  if (args.length !== expected.length) {
    throw new UsageError(`rt secrets ${subcommand} takes ${expected.map((name) => `<${name}>`).join(" ")}, got ${args.length} argument${args.length === 1 ? "" : "s"}`);
  }
  return run(subcommand as Subcommand, args[0]!, args[1]!).catch(userFacing);
}

async function run(subcommand: Subcommand, service: string, name: string): Promise<void> {
  const module = loadSecrets();
  const { secrets } = module;
  switch (subcommand) {
    case "get": {
      const value = await secrets.get(service, name);
      if (value === null) throw notFound(service, name);
      // Exactly the value, as `secret-tool lookup` prints it; a newline only for a person.
      process.stdout.write(process.stdout.isTTY ? `${value}\n` : value);
      return;
    }
    case "set": {
      module.readPair("set", service, name); // a mistake in the names is reported before any typing
      const value = process.stdin.isTTY ? await promptHidden(`Value for ${service}/${name}: `) : await readStdin();
      await secrets.set(service, name, value);
      return;
    }
    case "delete":
      if (!(await secrets.delete(service, name))) throw notFound(service, name);
      return;
    case "list":
      for (const account of await module.listNames(service)) process.stdout.write(`${account}\n`);
      return;
  }
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

/** All of stdin, exactly (no newline stripped), as UTF-8 text; the buffers are zeroed after. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ProgramError("the value on stdin is not UTF-8 text: rt secrets stores text", "ERR_SECRETS_NOT_TEXT");
  } finally {
    for (const chunk of chunks) chunk.fill(0);
    bytes.fill(0);
  }
}

/** One line typed at the terminal, not echoed. Ctrl-C cancels; Backspace edits. */
function promptHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  input.setRawMode(true); // before the prompt shows: nothing typed after it may echo
  process.stderr.write(prompt);
  input.resume();
  let typed = "";
  return new Promise<string>((resolve, reject) => {
    const finish = (error?: Error): void => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString("utf8");
      chunk.fill(0);
      if (text.startsWith("\u001b")) return; // arrow and function keys
      for (const char of text) {
        if (char === "\r" || char === "\n" || char === "\u0004") return finish();
        if (char === "\u0003") return finish(new ProgramError("cancelled: nothing was stored", "ERR_SECRETS_CANCELLED"));
        if (char === "\u007f" || char === "\b") typed = [...typed].slice(0, -1).join("");
        else if (char >= " ") typed += char;
      }
    };
    input.on("data", onData);
  });
}
