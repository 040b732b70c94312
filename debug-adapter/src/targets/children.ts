// Child processes of a launched program (RT_INSPECT_CHILDREN): each rt process the program starts
// reports in and waits. An editor that can start child sessions (DAP's startDebugging) gets an
// attach configuration for each; otherwise the child is let go at once, undebugged, rather than
// left waiting. So are the tools a program runs from node_modules (a bundler's or tsc's CLI): as
// vscode-js-debug's default auto-attach, they are not the user's code.
import * as path from "node:path";
import { CdpConnection } from "../cdp/connection.js";
import { DEBUG_TYPE, type AttachArguments } from "../configuration.js";
import type { Announcement } from "./launch.js";

/** The child session's configuration: an attach to the waiting child, which it may end. */
export function childConfiguration(child: Announcement): AttachArguments & { type: string; request: "attach"; name: string } {
  const name = child.entry ? `${path.basename(child.entry)} [${child.pid}]` : `child process [${child.pid}]`;
  return { type: DEBUG_TYPE, request: "attach", name, url: child.url, __childProcessId: child.pid };
}

/** Whether the child runs a file of a dependency (node_modules), not the program's own code. */
export function isToolProcess(child: Announcement): boolean {
  return child.entry?.split(/[\\/]/).includes("node_modules") ?? false;
}

/** Lets a waiting child run without a debugger. */
export async function releaseChild(child: Announcement): Promise<void> {
  const cdp = await CdpConnection.connect(child.url).catch(() => undefined);
  if (!cdp) return;
  await cdp.send("Runtime.runIfWaitingForDebugger").catch(() => {});
  cdp.close();
}
