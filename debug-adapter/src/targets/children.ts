// Child processes of a launched program (RT_INSPECT_CHILDREN): each rt process the program starts
// reports in and waits. An editor that can start child sessions (DAP's startDebugging) gets an
// attach configuration for each; otherwise the child is let go at once, undebugged, rather than
// left waiting.
import * as path from "node:path";
import { CdpConnection } from "../cdp/connection.js";
import { DEBUG_TYPE, type AttachArguments } from "../configuration.js";
import type { Announcement } from "./launch.js";

/** The child session's configuration: an attach to the waiting child, which it may end. */
export function childConfiguration(child: Announcement): AttachArguments & { type: string; request: "attach"; name: string } {
  const name = child.title ? `${path.basename(child.title)} [${child.pid}]` : `child process [${child.pid}]`;
  return { type: DEBUG_TYPE, request: "attach", name, url: child.url, __childProcessId: child.pid };
}

/** Lets a waiting child run without a debugger. */
export async function releaseChild(child: Announcement): Promise<void> {
  const cdp = await CdpConnection.connect(child.url).catch(() => undefined);
  if (!cdp) return;
  await cdp.send("Runtime.runIfWaitingForDebugger").catch(() => {});
  cdp.close();
}
