// The one definition of the extension's command ids and settings. build.mjs writes them into
// package.json's `contributes` (titles, icons, schema), and the sources import the ids from here.

export interface CommandContribution {
  readonly id: string;
  readonly title: string;
  readonly icon?: string;
  /** Left out of the command palette (actions of tree items, which need their item). */
  readonly paletteHidden?: boolean;
}

export const COMMANDS = {
  runFile: { id: "rt.runFile", title: "Run File", icon: "$(play)" },
  debugFile: { id: "rt.debugFile", title: "Debug File", icon: "$(debug-alt)" },
  runScript: { id: "rt.runScript", title: "Run Script" },
  debugScript: { id: "rt.debugScript", title: "Debug Script" },
  /** F5's keybinding in a window with a folder that uses rt (features/debug/f5.ts). */
  f5: { id: "rt.f5", title: "Start Debugging", paletteHidden: true },
  showOutput: { id: "rt.showOutput", title: "Show Output" },
  configurePath: { id: "rt.configurePath", title: "Configure Runtime Path" },
  secretsAdd: { id: "rt.secrets.add", title: "Add Secret", icon: "$(add)" },
  secretsCopy: { id: "rt.secrets.copy", title: "Copy Value", icon: "$(copy)", paletteHidden: true },
  secretsReveal: { id: "rt.secrets.reveal", title: "Reveal Value", icon: "$(eye)", paletteHidden: true },
  secretsUpdate: { id: "rt.secrets.update", title: "Update Value", icon: "$(edit)", paletteHidden: true },
  secretsDelete: { id: "rt.secrets.delete", title: "Delete Secret", icon: "$(trash)", paletteHidden: true },
  secretsRefresh: { id: "rt.secrets.refresh", title: "Refresh Secrets", icon: "$(refresh)" },
  secretsTrack: { id: "rt.secrets.track", title: "Track a Service", icon: "$(eye-watch)" },
  secretsUntrack: { id: "rt.secrets.untrack", title: "Untrack Service", icon: "$(eye-closed)", paletteHidden: true },
} as const satisfies Record<string, CommandContribution>;

export interface SettingContribution {
  readonly id: string;
  readonly type: "string";
  readonly default: string;
  readonly enum?: readonly string[];
  readonly scope: "machine-overridable" | "window";
  readonly markdownDescription: string;
}

export const SETTINGS = {
  runtimePath: {
    id: "rt.runtimePath",
    type: "string",
    default: "",
    scope: "machine-overridable",
    markdownDescription: "Path of the `rt` executable that tasks, Run/Debug and the integrated terminal use. Empty: the runtime bundled with this extension.",
  },
  traceServer: {
    id: "rt.trace.server",
    type: "string",
    default: "off",
    enum: ["off", "messages", "verbose"],
    scope: "window",
    markdownDescription: "Log the messages between VS Code and rt's language server in the **rt Language Server** output channel.",
  },
} as const satisfies Record<string, SettingContribution>;

/** Context keys the extension sets (package.json's `when` clauses name them through build.mjs). */
export const CONTEXT_KEYS = {
  /** A workspace folder uses rt: F5 goes to rt's F5 command, which hands what is not rt's to VS Code's. */
  f5: "rt.f5",
} as const;

/** F5 without a launch.json in a folder that uses rt: rt's debugger on the project's program, without VS Code asking which debugger. */
export const KEYBINDINGS = [{ key: "f5", command: COMMANDS.f5.id, when: `${CONTEXT_KEYS.f5} && debugState == 'inactive'` }] as const;

/** The oldest rt whose `rt run --json` and debugger interface this extension speaks. */
export const MIN_RT_VERSION = "0.1.0";

/** Source files the Run/Debug File buttons and F5 without launch.json accept. */
export const RUNNABLE_EXTENSIONS = [".ts", ".tsx", ".js", ".jsx", ".mts", ".cts"] as const;

export const TASK_TYPE = "rt";
export { DEBUG_TYPE } from "rt-debug-adapter/configuration";
export const SECRETS_VIEW = "rt.secrets";

/** Where the packaged extension keeps what it bundles, relative to its root (scripts/package.mjs). */
export const LAYOUT = {
  runtime: "runtime",
  runtimeBin: "runtime/bin/rt.cjs",
  /** The runtime's compiled front (runtime/native/; rt.exe on Windows), in packages built where Go is installed. */
  runtimeFront: "runtime/dist/rt",
  server: "server",
  serverMain: "server/dist/server.cjs",
} as const;
