// rt's web debugger: the page the inspector serves at http://<host>:<port>/#<host>:<port>/<id>.
// Source view with gutter breakpoints, paused-line highlight, variables, console, stepping.
import { CdpConnection } from "./cdp.js";
import { INTERNAL_URLS_METHOD } from "../rt-methods.js";
import { StopPolicy } from "../stop-policy.js";
import { decodeInlineMap, generatedLocation, originalLine, type Script } from "./scripts.js";

interface CallFrame {
  callFrameId: string;
  location: { scriptId: string; lineNumber: number; columnNumber: number };
  scopeChain: { type: string; object: { objectId: string } }[];
}
interface RemoteObject {
  type: string;
  subtype?: string;
  value?: unknown;
  description?: string;
  objectId?: string;
}

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const statusView = element<HTMLSpanElement>("status");
const filesView = element<HTMLUListElement>("files");
const sourceView = element<HTMLDivElement>("source");
const sourceTitle = element<HTMLHeadingElement>("source-title");
const variablesView = element<HTMLDivElement>("variables");
const consoleView = element<HTMLDivElement>("console");
const consoleInput = element<HTMLInputElement>("console-input");

// The fragment is `host:port/id` as rt printed it; the page connects to the server that served
// it (its CSP allows no other), so a link cannot point it at another debugger.
const target = /^[^/]+\/([\w.~-]+)$/.exec(location.hash.slice(1))?.[1];
const cdp = new CdpConnection(`ws://${location.host}/${target}`, (connected) =>
  connected ? void attach() : exited === undefined && setStatus("Disconnected: reconnecting…"),
);
/** The ended program's exit code, shown until a new one (rt --watch) is attached. */
let exited: number | undefined;

/** The program's own scripts, shown in the file list. */
const scripts = new Map<string, Script>();
/** The URLs of the rest (Node's, rt's, node_modules), named when the program stops in one. */
const otherScripts = new Map<string, string>();
/** Which stops the page shows: after Pause or a step, one outside the program's scripts steps on. */
const stops = new StopPolicy<CallFrame>((frame) => scripts.has(frame.location.scriptId));
/** URL prefixes of rt's own files (launcher, bundle), which the file list leaves out. */
let internalPrefixes: string[] = [];
/** Breakpoints by script URL and original line, kept across reconnects. */
const breakpoints = new Map<string, Map<number, string>>();
let current: Script | undefined;
let pausedFrame: CallFrame | undefined;

function setStatus(text: string, paused = false): void {
  statusView.textContent = text;
  statusView.classList.toggle("paused", paused);
}

async function attach(): Promise<void> {
  scripts.clear();
  otherScripts.clear();
  filesView.replaceChildren();
  setStatus("Running");
  // A new process (rt --watch restarted it) has none of our breakpoints: mark them all to be set
  // again as their scripts are parsed. Before Debugger.enable, which reports the scripts already
  // loaded (a restarted program runs before the page reconnects).
  for (const lines of breakpoints.values()) for (const line of lines.keys()) lines.set(line, "");
  exited = undefined;
  internalPrefixes = (await cdp.send<{ prefixes: string[] }>(INTERNAL_URLS_METHOD)).prefixes;
  await cdp.send("NodeRuntime.notifyWhenWaitingForDisconnect", { enabled: true });
  await cdp.send("Runtime.enable");
  await cdp.send("Debugger.enable");
  await cdp.send("Runtime.runIfWaitingForDebugger");
}

cdp.on("Debugger.scriptParsed", async (params: { scriptId: string; url: string; sourceMapURL?: string }) => {
  if (!params.url.startsWith("file://") || params.url.includes("/node_modules/") || internalPrefixes.some((prefix) => params.url.startsWith(prefix))) {
    otherScripts.set(params.scriptId, params.url);
    return;
  }
  const map = decodeInlineMap(params.sourceMapURL);
  const text = map?.sourcesContent?.[0] ?? (await cdp.send<{ scriptSource: string }>("Debugger.getScriptSource", { scriptId: params.scriptId })).scriptSource;
  const script: Script = { scriptId: params.scriptId, url: params.url, text, map };
  scripts.set(params.scriptId, script);
  await restoreBreakpoints(script);
  const item = document.createElement("li");
  item.textContent = decodeURIComponent(params.url.replace(/^file:\/\//, ""))
    .split("/")
    .slice(-2)
    .join("/");
  item.title = params.url;
  item.dataset.url = params.url;
  item.onclick = () => show(script);
  filesView.append(item);
  if (!current || current.url === script.url) show(script);
});

cdp.on("Debugger.paused", async (params: { callFrames: CallFrame[]; reason: string; hitBreakpoints?: string[]; data?: unknown }) => {
  const decision = stops.decide(params);
  if ("hide" in decision) {
    void cdp.send({ resume: "Debugger.resume", stepOut: "Debugger.stepOut", stepInto: "Debugger.stepInto" }[decision.hide]);
    return;
  }
  pausedFrame = params.callFrames[0];
  if (!pausedFrame) return;
  const script = scripts.get(pausedFrame.location.scriptId);
  // After steps of our own, the stop is still the one the user asked for.
  const reason = decision.show ?? params.reason;
  const line = script ? originalLine(script, pausedFrame.location) : pausedFrame.location.lineNumber + 1;
  const where = script ? script.url.split("/").pop() : (otherScripts.get(pausedFrame.location.scriptId) ?? "?");
  setStatus(`Paused at ${where}:${line} (${reason})`, true);
  if (script) show(script, line);
  await showScopes(pausedFrame);
});

cdp.on("Debugger.resumed", () => {
  pausedFrame = undefined;
  setStatus("Running");
  for (const row of sourceView.querySelectorAll(".line.paused")) row.classList.remove("paused");
  variablesView.replaceChildren(hint("Paused scopes show here."));
});

cdp.on("Runtime.consoleAPICalled", (params: { type: string; args: RemoteObject[] }) => {
  // As console.log prints them: strings bare, other values described.
  const text = params.args.map((arg) => (arg.type === "string" ? String(arg.value) : describe(arg))).join(" ");
  log(text, params.type === "error" ? "error" : "");
});
cdp.on("Runtime.exceptionThrown", (params: { exceptionDetails: { exception?: RemoteObject; text: string } }) => {
  log(params.exceptionDetails.exception?.description ?? params.exceptionDetails.text, "error");
});

// The program ended; rt keeps it (as Node does) until its debuggers disconnect: read its exit
// code, show it, and let it go. (Under rt --watch the page reconnects to the restarted program.)
cdp.on("NodeRuntime.waitingForDisconnect", async () => {
  const { result } = await cdp.send<{ result: RemoteObject }>("Runtime.evaluate", { expression: "process.exitCode ?? 0", returnByValue: true });
  exited = Number(result.value);
  pausedFrame = undefined;
  setStatus(`Exited with code ${exited}`);
  cdp.disconnect();
});

function show(script: Script, pausedLine?: number): void {
  if (current !== script) {
    current = script;
    sourceTitle.textContent = decodeURIComponent(script.url.replace(/^file:\/\//, ""));
    const marks = breakpoints.get(script.url);
    sourceView.replaceChildren(
      ...script.text.split("\n").map((code, index) => {
        const row = document.createElement("div");
        row.className = "line";
        row.dataset.line = String(index + 1);
        const gutter = document.createElement("span");
        gutter.className = "gutter";
        gutter.textContent = String(index + 1);
        gutter.dataset.testid = `line-${index + 1}`;
        gutter.classList.toggle("breakpoint", marks?.has(index + 1) ?? false);
        gutter.onclick = () => void toggleBreakpoint(script, index + 1, gutter);
        const text = document.createElement("span");
        text.textContent = code;
        row.append(gutter, text);
        return row;
      }),
    );
    for (const item of filesView.children) item.classList.toggle("current", (item as HTMLElement).dataset.url === script.url);
  }
  for (const row of sourceView.querySelectorAll(".line.paused")) row.classList.remove("paused");
  if (pausedLine !== undefined) {
    const row = sourceView.querySelector<HTMLElement>(`.line[data-line="${pausedLine}"]`);
    row?.classList.add("paused");
    row?.scrollIntoView({ block: "center" });
  }
}

async function toggleBreakpoint(script: Script, line: number, gutter: HTMLElement): Promise<void> {
  const lines = breakpoints.get(script.url) ?? new Map<number, string>();
  breakpoints.set(script.url, lines);
  const existing = lines.get(line);
  if (existing !== undefined) {
    lines.delete(line);
    gutter.classList.remove("breakpoint");
    if (existing) await cdp.send("Debugger.removeBreakpoint", { breakpointId: existing });
    return;
  }
  const location = generatedLocation(script, line);
  if (!location) return log(`No code on line ${line} to stop at`, "error");
  const { breakpointId } = await cdp.send<{ breakpointId: string }>("Debugger.setBreakpointByUrl", { url: script.url, ...location });
  lines.set(line, breakpointId);
  gutter.classList.add("breakpoint");
}

async function restoreBreakpoints(script: Script): Promise<void> {
  const lines = breakpoints.get(script.url);
  if (!lines) return;
  for (const [line, id] of lines) {
    if (id) continue;
    const location = generatedLocation(script, line);
    if (location) lines.set(line, (await cdp.send<{ breakpointId: string }>("Debugger.setBreakpointByUrl", { url: script.url, ...location })).breakpointId);
  }
}

async function showScopes(frame: CallFrame): Promise<void> {
  const blocks: HTMLElement[] = [];
  for (const scope of frame.scopeChain) {
    if (scope.type === "global") continue;
    const title = document.createElement("div");
    title.className = "scope-name";
    title.textContent = scope.type[0]!.toUpperCase() + scope.type.slice(1);
    blocks.push(title, await propertyTree(scope.object.objectId));
  }
  variablesView.replaceChildren(...blocks);
}

async function propertyTree(objectId: string): Promise<HTMLElement> {
  const { result } = await cdp.send<{ result: { name: string; value?: RemoteObject }[] }>("Runtime.getProperties", {
    objectId,
    ownProperties: true,
    generatePreview: false,
  });
  const list = document.createElement("ul");
  list.className = "tree";
  for (const property of result) {
    if (!property.value) continue;
    const item = document.createElement("li");
    item.dataset.testid = `variable-${property.name}`;
    const value = property.value;
    const label = `${property.name}: ${describe(value)}`;
    if (value.objectId && value.type === "object" && value.subtype !== "null") {
      const toggle = document.createElement("span");
      toggle.className = "toggle";
      toggle.textContent = `▸ ${label}`;
      toggle.onclick = async () => {
        const open = item.querySelector("ul");
        toggle.textContent = `${open ? "▸" : "▾"} ${label}`;
        if (open) open.remove();
        else item.append(await propertyTree(value.objectId!));
      };
      item.append(toggle);
    } else item.textContent = label;
    list.append(item);
  }
  return list;
}

function describe(value: RemoteObject): string {
  if (value.type === "string") return JSON.stringify(value.value);
  if (value.type === "undefined") return "undefined";
  if ("value" in value && value.type !== "object") return String(value.value);
  return value.description ?? String(value.value);
}

function hint(text: string): HTMLElement {
  const paragraph = document.createElement("p");
  paragraph.className = "hint";
  paragraph.textContent = text;
  return paragraph;
}

function log(text: string, kind: string): void {
  const line = document.createElement("div");
  line.textContent = text;
  if (kind) line.className = kind;
  consoleView.append(line);
  consoleView.scrollTop = consoleView.scrollHeight;
}

consoleInput.addEventListener("keydown", async (event) => {
  if (event.key !== "Enter" || !consoleInput.value.trim()) return;
  const expression = consoleInput.value;
  consoleInput.value = "";
  log(`> ${expression}`, "input");
  try {
    const { result, exceptionDetails } = pausedFrame
      ? await cdp.send<{ result: RemoteObject; exceptionDetails?: unknown }>("Debugger.evaluateOnCallFrame", {
          callFrameId: pausedFrame.callFrameId,
          expression,
        })
      : await cdp.send<{ result: RemoteObject; exceptionDetails?: unknown }>("Runtime.evaluate", { expression, replMode: true });
    log(describe(result), exceptionDetails ? "error" : "result");
  } catch (error) {
    log(String(error), "error");
  }
});

const controls: Record<string, string> = {
  resume: "Debugger.resume",
  pause: "Debugger.pause",
  "step-over": "Debugger.stepOver",
  "step-into": "Debugger.stepInto",
  "step-out": "Debugger.stepOut",
};
function control(method: string): void {
  stops.asked(method === "Debugger.resume" ? undefined : method === "Debugger.pause" ? "pause" : "step");
  void cdp.send(method).catch((error) => log(String(error), "error"));
}
for (const [id, method] of Object.entries(controls)) element(id).onclick = () => control(method);
document.addEventListener("keydown", (event) => {
  const method = { F8: "Debugger.resume", F10: "Debugger.stepOver", F11: event.shiftKey ? "Debugger.stepOut" : "Debugger.stepInto" }[event.key];
  if (method) {
    event.preventDefault();
    control(method);
  }
});

if (target) cdp.connect();
else setStatus("No target: open the link rt printed (…/#host:port/id)");
