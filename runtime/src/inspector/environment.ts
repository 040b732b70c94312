// How a debug adapter (or `rt --inspect run dev` itself) reaches an rt it does not start itself
// with a flag (the rt process that a package.json script starts: `rt run dev` runs `rt app.ts` in
// a shell), and how an adapter learns the address of any rt it launched without reading that
// process's stderr.
//
//   RT_INSPECT=<mode>[=<address>]  the debugger flag (inspect, inspect-wait or inspect-brk, with
//                                  the value form of the flag) for the first rt that runs a program
//   RT_INSPECT_NOTIFY=<path>       a Unix socket (a named pipe on Windows) to which rt writes one
//                                  JSON line {"url": <WebSocket URL>, "pid": <process id>} once
//                                  it listens, before it waits
//   RT_INSPECT_CONSOLE=debugger    console.* calls go to the debugger only (a debug console shows
//                                  them with their source location), not also to stdout/stderr
//   RT_INSPECT_CHILDREN=<path>     every rt process below the launched one (fork, spawn of
//                                  process.execPath, `rt` in a script) that runs a program and has
//                                  no debugger of its own listens as --inspect-wait on a free
//                                  loopback port and reports in there, with "child": true
//
// The process that starts its inspector removes the first three from its environment: the
// processes the program starts are not debugged by accident (under --watch the supervisor never
// starts an inspector, so each restarted program reads them afresh). RT_INSPECT_CHILDREN stays:
// the adapter follows the whole tree.
import { UsageError } from "../errors.js";

export const INSPECT_VARIABLE = "RT_INSPECT";
export const NOTIFY_VARIABLE = "RT_INSPECT_NOTIFY";
export const CONSOLE_VARIABLE = "RT_INSPECT_CONSOLE";
export const CHILDREN_VARIABLE = "RT_INSPECT_CHILDREN";

const MODES = ["inspect", "inspect-wait", "inspect-brk"] as const;
export type InspectorMode = (typeof MODES)[number];

/** The debugger flag passed down in RT_INSPECT, if any. */
export function inheritedInspector(env: NodeJS.ProcessEnv): { mode: InspectorMode; value: string } | undefined {
  const raw = env[INSPECT_VARIABLE];
  if (raw === undefined || raw === "") return env[CHILDREN_VARIABLE] && !env[NOTIFY_VARIABLE] ? { mode: "inspect-wait", value: "127.0.0.1:0" } : undefined;
  const equals = raw.indexOf("=");
  const mode = (equals === -1 ? raw : raw.slice(0, equals)).replace(/^--/, "");
  if (!(MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`invalid ${INSPECT_VARIABLE}="${raw}": expected inspect, inspect-wait or inspect-brk, optionally followed by =[[host:]port[/prefix]]`);
  }
  return { mode: mode as InspectorMode, value: equals === -1 ? "" : raw.slice(equals + 1) };
}

/** RT_INSPECT's value for a debugger flag (what inheritedInspector reads back). */
export function inspectorVariable(mode: InspectorMode, value: string): string {
  return value === "" ? mode : `${mode}=${value}`;
}

/** What the inspector of this process does for a debug adapter; removes the variables (but RT_INSPECT_CHILDREN). */
export function takeAdapterSettings(env: NodeJS.ProcessEnv): { notify: string | undefined; consoleToDebugger: boolean; child: boolean } {
  const launched = env[NOTIFY_VARIABLE] || undefined;
  const children = env[CHILDREN_VARIABLE] || undefined;
  const settings = { notify: launched ?? children, consoleToDebugger: env[CONSOLE_VARIABLE] === "debugger", child: !launched && children !== undefined };
  for (const name of [INSPECT_VARIABLE, NOTIFY_VARIABLE, CONSOLE_VARIABLE]) delete env[name];
  return settings;
}
