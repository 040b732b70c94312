// The launch and attach attributes of debug type "rt": ONE table, from which the extension
// generates `contributes.debuggers[0].configurationAttributes` and which the adapter's argument
// types are checked against (a key in one and not the other fails to typecheck).
import type { DebugProtocol } from "@vscode/debugprotocol";

export const DEBUG_TYPE = "rt";

export interface Attribute {
  readonly type: string | readonly string[];
  readonly description: string;
  readonly default?: unknown;
  readonly enum?: readonly string[];
  readonly items?: { readonly type: string };
  readonly additionalProperties?: { readonly type: string | readonly string[] };
}

export const LAUNCH_ATTRIBUTES = {
  program: { type: "string", description: "The file to run (.ts, .tsx, .js, ...). Give this or `script`.", default: "${file}" },
  script: { type: "string", description: "A package.json script to run with `rt run <script>`; the rt process it starts is debugged. Give this or `program`." },
  args: { type: "array", items: { type: "string" }, description: "Arguments passed to the program or the script.", default: [] },
  cwd: {
    type: "string",
    description: "The working directory (default: the program's folder, or the workspace folder for a script).",
    default: "${workspaceFolder}",
  },
  env: {
    type: "object",
    additionalProperties: { type: ["string", "null"] },
    description: "Environment variables added to the program's (null removes one).",
    default: {},
  },
  envFile: { type: "string", description: "A .env file whose variables are added before `env`." },
  runtimeExecutable: { type: "string", description: "The rt executable (default: the one the extension bundles, else `rt` on PATH)." },
  runtimeArgs: { type: "array", items: { type: "string" }, description: "Flags given to rt before the program.", default: [] },
  stopOnEntry: { type: "boolean", description: "Stop on the program's first statement.", default: false },
  watchMode: {
    type: ["boolean", "string"],
    enum: ["watch", "hot"],
    description: 'Run with --watch (true or "watch": restart on change, the debugger reattaches) or --hot.',
    default: false,
  },
  console: {
    type: "string",
    enum: ["internalConsole", "integratedTerminal"],
    description: "Where the program's output goes: the Debug Console or the integrated terminal.",
    default: "internalConsole",
  },
  noDebug: { type: "boolean", description: "Run without debugging.", default: false },
  autoAttachChildProcesses: {
    type: "boolean",
    description:
      "Debug the rt processes the program starts (fork, cluster.fork, spawn of process.execPath, `rt` in a script), each as a child session with the same breakpoints.",
    default: true,
  },
} as const satisfies Record<string, Attribute>;

export const ATTACH_ATTRIBUTES = {
  url: { type: "string", description: "The inspector's WebSocket URL (ws://127.0.0.1:9229/<id>), as rt --inspect prints it." },
  port: { type: "number", description: "The inspector's port: the target is found through /json/list.", default: 9229 },
  host: { type: "string", description: "The inspector's host, with `port`.", default: "127.0.0.1" },
  allowRemote: { type: "boolean", description: "Allow a host that is not this machine (anyone who can reach the port can run code there).", default: false },
  restart: {
    type: ["boolean", "object"],
    description: "Reconnect when the connection closes (the program restarted): true, or { maxAttempts, delayMs } (delays double up to 5 s).",
    default: false,
  },
} as const satisfies Record<string, Attribute>;

type AttributeValue<A> = A extends { readonly type: "string" }
  ? string
  : A extends { readonly type: "boolean" }
    ? boolean
    : A extends { readonly type: "number" }
      ? number
      : A extends { readonly type: "array" }
        ? string[]
        : unknown;

type FromTable<T> = { -readonly [K in keyof T]?: AttributeValue<T[K]> };

interface LaunchOverrides {
  env?: Record<string, string | null>;
  watchMode?: boolean | "watch" | "hot";
  console?: "internalConsole" | "integratedTerminal";
}

export type LaunchArguments = DebugProtocol.LaunchRequestArguments & Omit<FromTable<typeof LAUNCH_ATTRIBUTES>, keyof LaunchOverrides> & LaunchOverrides;

export interface RestartPolicy {
  maxAttempts?: number;
  delayMs?: number;
}

export type AttachArguments = DebugProtocol.AttachRequestArguments &
  Omit<FromTable<typeof ATTACH_ATTRIBUTES>, "restart"> & {
    restart?: boolean | RestartPolicy;
    /** Set by the adapter for a child process's session (not a user setting): the process it may end. */
    __childProcessId?: number;
  };

/** `configurationAttributes` as a package.json debugger contribution wants it. */
export function configurationAttributes() {
  const schema = (table: Record<string, Attribute>, required: string[]) => ({ properties: table, ...(required.length ? { required } : {}) });
  return { launch: schema(LAUNCH_ATTRIBUTES, []), attach: schema(ATTACH_ATTRIBUTES, []) };
}
