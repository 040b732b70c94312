// The one flag table. It drives the argv parser, `rt --help`, the rtfig.toml
// schema and the language server's completions: add a flag here and nowhere else.

export type FlagType = "boolean" | "string" | "number" | "list";

export const FLAG_GROUPS = {
  general: "General",
  workspaces: "Workspaces",
  runtime: "Runtime & process control",
  workflow: "Development workflow",
  debugging: "Debugging",
  test: "Test runner (rt --test: Node's, on rt's loader)",
  resolution: "Dependency & module resolution",
  transpilation: "Transpilation & language",
  networking: "Networking & security",
  config: "Global configuration",
  build: "Bundler (rt build)",
  secrets: "Credentials (rt secrets)",
} as const;
export type FlagGroup = keyof typeof FLAG_GROUPS;

export interface FlagSpec {
  /** Long name without the leading dashes; a one-letter name is a short-only flag (`-i`). */
  readonly name: string;
  readonly short?: string;
  readonly type: FlagType;
  readonly help: string;
  readonly group: FlagGroup;
  /** Shown in help and applied when the flag is absent. */
  readonly default?: string | number | boolean;
  /** The only values accepted (string and list flags). */
  readonly values?: readonly string[];
  /** Placeholder in help, e.g. `<file>`. */
  readonly valueName?: string;
  /** The value may be omitted and then is only given with `=` (`--inspect[=addr]`). */
  readonly optionalValue?: boolean;
  /** A number flag's smallest accepted value. */
  readonly min?: number;
  /** A number flag's largest accepted value. */
  readonly max?: number;
  /** Setting this flag also sets other flags (`-i` means `--install=fallback`). */
  readonly implies?: Readonly<Record<string, string | boolean>>;
  /** Another name for a flag: its value is that flag's (a list's values join, in command-line order). */
  readonly aliasOf?: string;
  /**
   * Where rtfig.toml holds a default for this flag: a top-level key (absent), the script
   * runner's `[run]` table, or nowhere (a flag that says what one invocation does).
   */
  readonly config?: "run" | false;
  /** A list of KEY:VALUE entries that rtfig.toml may also write as a table; `values` limits the VALUEs. */
  readonly keyed?: { readonly values?: readonly string[] };
}

export const LOADERS = ["js", "jsx", "ts", "tsx", "json", "toml", "text", "file", "wasm", "napi"] as const;
export type LoaderName = (typeof LOADERS)[number];
/** The loaders of JavaScript and TypeScript source: what the transpiler compiles. */
export type ScriptLoader = Extract<LoaderName, "js" | "jsx" | "ts" | "tsx">;

// `as const`: each row keeps its literal types, from which FlagValues is derived.
const FLAG_TABLE = [
  // general
  { name: "help", short: "h", type: "boolean", group: "general", help: "Print this help and exit", config: false },
  { name: "version", short: "v", type: "boolean", group: "general", help: "Print rt's version and exit", config: false },
  { name: "eval", short: "e", type: "string", valueName: "<code>", group: "general", help: "Run <code> as TypeScript (JSX enabled)", config: false },
  {
    name: "print",
    short: "p",
    type: "string",
    valueName: "<code>",
    group: "general",
    help: "Like --eval, then print the result (promises are awaited)",
    config: false,
  },
  { name: "if-present", type: "boolean", group: "general", help: "Exit 0 silently when the script or file does not exist", config: false },
  { name: "silent", type: "boolean", group: "general", help: "Don't echo the script's command", config: "run" },
  {
    name: "shell",
    type: "string",
    values: ["system", "rt"],
    default: "system",
    group: "general",
    help: "Shell for package.json scripts: the system's (bash, sh, zsh) or rt's portable shell",
    config: "run",
  },
  { name: "rt", short: "b", type: "boolean", group: "general", help: "Run `node` and node-shebang binaries in scripts on rt", config: "run" },
  { name: "json", type: "boolean", group: "general", help: "List as JSON: `rt run` with no name (the scripts), `rt secrets list` (the names)", config: false },
  // workspaces
  {
    name: "filter",
    short: "F",
    type: "list",
    valueName: "<pattern>",
    group: "workspaces",
    help: "Run the script in each workspace package matching <pattern> (name glob, ./path glob, !exclusion)",
    config: false,
  },
  { name: "workspaces", type: "boolean", group: "workspaces", help: "Run the script in every package of the root's `workspaces` field", config: false },
  {
    name: "elide-lines",
    type: "number",
    min: 0,
    default: 10,
    group: "workspaces",
    help: "Lines of each package's output shown live on a terminal (0 shows all)",
    config: false,
  },
  { name: "parallel", type: "boolean", group: "workspaces", help: "Run several scripts at once with prefixed output", config: false },
  { name: "sequential", type: "boolean", group: "workspaces", help: "Run several scripts one after another with prefixed output", config: false },
  {
    name: "no-exit-on-error",
    type: "boolean",
    group: "workspaces",
    help: "With --parallel/--sequential: keep running the others when one fails",
    config: false,
  },
  // runtime & process control
  { name: "smol", type: "boolean", group: "runtime", help: "Use less memory; garbage-collect more often" },
  { name: "expose-gc", type: "boolean", group: "runtime", help: "Expose gc() on the global object" },
  { name: "no-deprecation", type: "boolean", group: "runtime", help: "Silence deprecation warnings" },
  { name: "throw-deprecation", type: "boolean", group: "runtime", help: "Throw on deprecation warnings" },
  { name: "title", type: "string", valueName: "<title>", group: "runtime", help: "Set the process title" },
  { name: "zero-fill-buffers", type: "boolean", group: "runtime", help: "Make Buffer.allocUnsafe return zero-filled memory" },
  { name: "no-addons", type: "boolean", group: "runtime", help: 'Refuse native addons (process.dlopen throws; no "node-addons" condition)' },
  {
    name: "unhandled-rejections",
    type: "string",
    values: ["strict", "throw", "warn", "none", "warn-with-error-code"],
    default: "throw",
    group: "runtime",
    help: "What an unhandled promise rejection does",
  },
  { name: "console-depth", type: "number", min: 0, default: 2, group: "runtime", help: "Depth of objects printed by console.log" },
  { name: "preload", short: "r", type: "list", valueName: "<module>", group: "runtime", help: "Load <module> before the entry (repeatable)" },
  { name: "require", type: "list", valueName: "<module>", group: "runtime", help: "Alias of --preload", aliasOf: "preload" },
  { name: "import", type: "list", valueName: "<module>", group: "runtime", help: "Alias of --preload", aliasOf: "preload" },
  // development workflow
  { name: "watch", type: "boolean", group: "workflow", help: "Restart the program when a file it loaded changes", config: false },
  { name: "hot", type: "boolean", group: "workflow", help: "Reload changed modules in place, keeping global state", config: false },
  { name: "no-clear-screen", type: "boolean", group: "workflow", help: "Don't clear the terminal on --watch/--hot reloads", config: false },
  // debugging
  {
    name: "inspect",
    type: "string",
    optionalValue: true,
    valueName: "[[host:]port[/prefix]]",
    group: "debugging",
    help: "Start the debugger (Chrome DevTools Protocol over WebSocket)",
    config: false,
  },
  {
    name: "inspect-wait",
    type: "string",
    optionalValue: true,
    valueName: "[[host:]port[/prefix]]",
    group: "debugging",
    help: "Start the debugger and wait for a client before running code",
    config: false,
  },
  {
    name: "inspect-brk",
    type: "string",
    optionalValue: true,
    valueName: "[[host:]port[/prefix]]",
    group: "debugging",
    help: "Start the debugger and pause on the entry's first line",
    config: false,
  },
  // test runner: Node's flags of the same names, handed to it as they are
  {
    name: "test",
    type: "boolean",
    group: "test",
    help: "Run test files with Node's test runner (default: the test files under the working directory; a directory: those under it)",
    config: false,
  },
  { name: "test-name-pattern", type: "list", valueName: "<regex>", group: "test", help: "Run only the tests whose name matches (repeatable)", config: false },
  { name: "test-skip-pattern", type: "list", valueName: "<regex>", group: "test", help: "Skip the tests whose name matches (repeatable)", config: false },
  { name: "test-only", type: "boolean", group: "test", help: "Run only the tests marked `only`", config: false },
  {
    name: "test-reporter",
    type: "list",
    valueName: "<name|module>",
    group: "test",
    help: "Report with spec, tap, dot, junit, lcov or a reporter module (repeatable)",
    config: false,
  },
  {
    name: "test-reporter-destination",
    type: "list",
    valueName: "<stdout|stderr|file>",
    group: "test",
    help: "Where each --test-reporter writes, in the same order",
    config: false,
  },
  { name: "test-concurrency", type: "number", min: 1, valueName: "<n>", group: "test", help: "Test files run at once (default: CPUs - 1)", config: false },
  { name: "test-timeout", type: "number", min: 0, valueName: "<ms>", group: "test", help: "Fail a test that runs longer than <ms>", config: false },
  { name: "test-shard", type: "string", valueName: "<index>/<total>", group: "test", help: "Run one shard of the test files, e.g. 1/3", config: false },
  { name: "test-force-exit", type: "boolean", group: "test", help: "Exit when the tests end, even with handles still open", config: false },
  { name: "test-update-snapshots", type: "boolean", group: "test", help: "Rewrite the snapshots t.assert.snapshot compares with", config: false },
  { name: "experimental-test-coverage", type: "boolean", group: "test", help: "Report code coverage", config: false },
  { name: "test-coverage-include", type: "list", valueName: "<glob>", group: "test", help: "Files the coverage report covers (repeatable)", config: false },
  {
    name: "test-coverage-exclude",
    type: "list",
    valueName: "<glob>",
    group: "test",
    help: "Files left out of the coverage report (repeatable)",
    config: false,
  },
  { name: "test-coverage-lines", type: "number", min: 0, max: 100, valueName: "<%>", group: "test", help: "Fail below this line coverage", config: false },
  { name: "test-coverage-branches", type: "number", min: 0, max: 100, valueName: "<%>", group: "test", help: "Fail below this branch coverage", config: false },
  {
    name: "test-coverage-functions",
    type: "number",
    min: 0,
    max: 100,
    valueName: "<%>",
    group: "test",
    help: "Fail below this function coverage",
    config: false,
  },
  // dependency & module resolution
  {
    name: "install",
    type: "string",
    values: ["auto", "fallback", "force"],
    default: "auto",
    group: "resolution",
    help: "Auto-install missing packages: auto (no node_modules), fallback (missing only), force (always)",
  },
  { name: "i", type: "boolean", implies: { install: "fallback" }, group: "resolution", help: "Same as --install=fallback", config: false },
  { name: "no-install", type: "boolean", group: "resolution", help: "Never auto-install packages" },
  { name: "prefer-offline", type: "boolean", group: "resolution", help: "Resolve auto-installed packages from the cache without a staleness check" },
  { name: "prefer-latest", type: "boolean", group: "resolution", help: "Always check the registry for the latest matching versions" },
  { name: "conditions", type: "list", valueName: "<name>", group: "resolution", help: "Extra package `exports`/`imports` conditions (repeatable)" },
  {
    name: "main-fields",
    type: "string",
    valueName: "<a,b>",
    group: "resolution",
    help: "package.json fields tried for a package's entry when it has no `exports` (default: main)",
  },
  { name: "preserve-symlinks", type: "boolean", group: "resolution", help: "Resolve modules by their symlinked path, not the real path" },
  { name: "preserve-symlinks-main", type: "boolean", group: "resolution", help: "Keep the entry's symlinked path" },
  {
    name: "extension-order",
    type: "string",
    valueName: "<.a,.b>",
    default: ".tsx,.ts,.jsx,.js,.json",
    group: "resolution",
    help: "Extensions tried for extensionless imports",
  },
  // transpilation & language
  {
    name: "tsconfig-override",
    type: "string",
    valueName: "<file>",
    group: "transpilation",
    help: "tsconfig.json for every file (default: the nearest to each file)",
  },
  // tsx's name, for projects moving from tsx; rtfig.toml spells it one way only.
  {
    name: "tsconfig",
    type: "string",
    valueName: "<file>",
    group: "transpilation",
    help: "Alias of --tsconfig-override (tsx's name)",
    aliasOf: "tsconfig-override",
    config: false,
  },
  {
    name: "define",
    short: "d",
    type: "list",
    valueName: "<K:V>",
    group: "transpilation",
    help: "Replace K with V while transpiling; V is JSON, e.g. --define process.env.MODE:'\"prod\"'",
    keyed: {},
  },
  { name: "drop", type: "list", valueName: "<name>", group: "transpilation", help: "Remove calls, e.g. --drop=console or --drop=debugger" },
  {
    name: "loader",
    short: "l",
    type: "list",
    valueName: "<.ext:loader>",
    group: "transpilation",
    help: `Parse files ending in .ext with a loader: ${LOADERS.join(", ")}`,
    keyed: { values: LOADERS },
  },
  { name: "no-macros", type: "boolean", group: "transpilation", help: 'Refuse macro imports (with { type: "macro" })' },
  {
    name: "jsx-factory",
    type: "string",
    valueName: "<name>",
    group: "transpilation",
    help: "Function called for JSX elements with the classic runtime (default: React.createElement)",
  },
  {
    name: "jsx-fragment",
    type: "string",
    valueName: "<name>",
    group: "transpilation",
    help: "Value used for JSX fragments with the classic runtime (default: React.Fragment)",
  },
  {
    name: "jsx-import-source",
    type: "string",
    valueName: "<module>",
    default: "react",
    group: "transpilation",
    help: "Module the automatic runtime imports jsx() from",
  },
  { name: "jsx-runtime", type: "string", values: ["automatic", "classic"], default: "automatic", group: "transpilation", help: "JSX runtime" },
  { name: "jsx-side-effects", type: "boolean", group: "transpilation", help: "Treat JSX elements as having side effects (no pure annotations)" },
  { name: "ignore-dce-annotations", type: "boolean", group: "transpilation", help: "Ignore @__PURE__ and sideEffects annotations" },
  // networking & security
  { name: "port", type: "number", min: 0, max: 65535, valueName: "<port>", group: "networking", help: "Default port for rt.serve (then $PORT, then 3000)" },
  { name: "user-agent", type: "string", valueName: "<ua>", group: "networking", help: "Default User-Agent for fetch and http" },
  { name: "fetch-preconnect", type: "list", valueName: "<url>", group: "networking", help: "Open a connection to <url> while code loads" },
  {
    name: "dns-result-order",
    type: "string",
    values: ["verbatim", "ipv4first", "ipv6first"],
    default: "verbatim",
    group: "networking",
    help: "Order of DNS lookup results (dns.lookup, fetch, net.connect)",
  },
  {
    name: "max-http-header-size",
    type: "number",
    min: 1,
    default: 16384,
    valueName: "<bytes>",
    group: "networking",
    help: "Largest HTTP header block in bytes (rt.serve answers 431 above it; also node:http and fetch)",
  },
  { name: "use-system-ca", type: "boolean", group: "networking", help: "Also trust the operating system's certificate store" },
  {
    name: "use-default-lib-ca",
    type: "boolean",
    group: "networking",
    help: "Trust the TLS library's (OpenSSL's) default certificate store instead of the bundled one",
  },
  { name: "use-bundled-ca", type: "boolean", group: "networking", help: "Trust the bundled Mozilla certificate store (default)" },
  { name: "sql-preconnect", type: "boolean", group: "networking", help: "Connect to PostgreSQL ($DATABASE_URL) at startup" },
  { name: "kvstore-preconnect", type: "boolean", group: "networking", help: "Connect to Redis/Valkey ($REDIS_URL) at startup" },
  // global configuration
  { name: "env-file", type: "list", valueName: "<file>", group: "config", help: "Load environment variables from <file> (repeatable; later files win)" },
  { name: "no-env-file", type: "boolean", group: "config", help: "Don't load .env, .env.$NODE_ENV and .env.local automatically" },
  { name: "cwd", type: "string", valueName: "<abs path>", group: "config", help: "Change the working directory before anything resolves", config: false },
  { name: "config", short: "c", type: "string", valueName: "<file>", group: "config", help: "Config file (default: $cwd/rtfig.toml)", config: false },
  // bundler (rt build); --watch rebuilds, and the transpilation & resolution flags apply as when running
  { name: "outdir", type: "string", valueName: "<dir>", group: "build", help: "Write the bundles (and their source maps) to <dir>" },
  { name: "outfile", type: "string", valueName: "<file>", group: "build", help: "Write the one entry's bundle to <file>" },
  { name: "target", type: "string", values: ["node", "browser", "rt"], default: "node", group: "build", help: "Where the bundle runs" },
  { name: "format", type: "string", values: ["esm", "cjs"], default: "esm", group: "build", help: "Module format of the bundle" },
  { name: "minify", type: "boolean", group: "build", help: "Minify whitespace, syntax and identifiers" },
  {
    name: "sourcemap",
    type: "string",
    optionalValue: true,
    values: ["linked", "inline", "external", "none"],
    default: "linked",
    group: "build",
    help: "Source maps: a .map file with a link, inline, a .map file without a link, none",
  },
  { name: "external", type: "list", valueName: "<module>", group: "build", help: "Leave imports of <module> to run time (repeatable; * wildcards)" },
  { name: "splitting", type: "boolean", group: "build", help: "Share code between entries in chunks (needs --format esm and --outdir)" },
  // credentials (rt secrets)
  { name: "allow-empty", type: "boolean", group: "secrets", help: "With `rt secrets set`: store an empty value (an empty stdin is refused otherwise)" },
] as const satisfies readonly FlagSpec[];

export const FLAGS: readonly FlagSpec[] = FLAG_TABLE;

type FlagRow = (typeof FLAG_TABLE)[number];
type ValueOf<Row> = Row extends { readonly type: "boolean" }
  ? boolean
  : Row extends { readonly type: "number" }
    ? number
    : Row extends { readonly type: "list" }
      ? string[]
      : Row extends { readonly values: readonly (infer Value)[] }
        ? Value
        : string;

/**
 * Flag values by long name, typed from the table: booleans, numbers, a string (one of `values`
 * where the row lists them), string arrays for list flags. Absent flags are undefined; an
 * alias's values are under the flag it aliases.
 */
export type FlagValues = { -readonly [Row in FlagRow as Row extends { readonly aliasOf: string } ? never : Row["name"]]?: ValueOf<Row> };
export type FlagName = keyof FlagValues;
type FlagDefaults = { [Row in FlagRow as Row extends { readonly default: unknown } ? Row["name"] : never]: ValueOf<Row> };

/** The flags a command takes: whole groups and single flags. */
export interface CommandFlags {
  readonly groups: readonly FlagGroup[];
  readonly flags: readonly FlagName[];
}

/**
 * Built-in commands; a command of the same name wins over a script (`rt run <name>` forces the
 * script). `takes` is the one statement of the flags a command accepts (as npm's `static params`):
 * the parser, `rt --help`'s reference, rtfig.toml's keys and the language server derive from it.
 * A command that runs no program reads flags after its arguments too (`rt build a.ts --minify`).
 */
export const COMMANDS = {
  run: {
    usage: "rt run [flags] <file|script|binary|command> [args...]",
    help: "Run a file, a package.json script, a project binary or a system command",
    // Also what `rt <file>` (no command) takes: everything for running a program.
    takes: { groups: ["general", "workspaces", "runtime", "workflow", "debugging", "test", "resolution", "transpilation", "networking", "config"], flags: [] },
    // Everything after the target is the program's: flags there are not rt's.
    runsProgram: true,
  },
  build: {
    usage: "rt build [flags] <entry...>",
    help: "Bundle for node, browsers or rt",
    // A bundle compiles as rt runs the sources: the transpilation and resolution flags apply.
    takes: { groups: ["build", "transpilation", "resolution", "config"], flags: ["help", "version", "watch", "no-clear-screen"] },
    runsProgram: false,
  },
  secrets: {
    usage: "rt secrets <get|set|delete|list> ...",
    help: "Manage credentials in the OS credential store",
    takes: { groups: ["secrets"], flags: ["help", "json"] },
    runsProgram: false,
  },
} as const satisfies Record<string, { usage: string; help: string; takes: CommandFlags; runsProgram: boolean }>;
export type CommandName = keyof typeof COMMANDS;

/** Whether `command` (undefined: running a file, as `rt run`) takes `flag`. */
export function commandTakes(command: CommandName | undefined, flag: FlagSpec): boolean {
  const { takes }: { readonly takes: CommandFlags } = COMMANDS[command ?? "run"];
  return takes.groups.includes(flag.group) || takes.flags.some((name) => name === flag.name);
}

/** The commands that take `flag`, in COMMANDS' order. */
export function commandsTaking(flag: FlagSpec): CommandName[] {
  return (Object.keys(COMMANDS) as CommandName[]).filter((command) => commandTakes(command, flag));
}

/** The tables of rtfig.toml: "" is the top level. */
export type ConfigTable = "" | "run";

/**
 * Where rtfig.toml holds a default for `flag`: "" (the top level), the `[run]` table, or nowhere
 * (undefined): a flag that says what one invocation does, or one `rt run` does not take (rt build's).
 */
export function configTableOf(flag: FlagSpec): ConfigTable | undefined {
  if (flag.config === false || !commandTakes("run", flag)) return undefined;
  return flag.config ?? "";
}

const byName = new Map<string, FlagSpec>();
const byShort = new Map<string, FlagSpec>();
for (const flag of FLAGS) {
  byName.set(flag.name, flag);
  if (flag.short) byShort.set(flag.short, flag);
}
/** A flag's default from the table, typed as its value; only rows that have one can be named. */
export function flagDefault<Name extends keyof FlagDefaults>(name: Name): FlagDefaults[Name] {
  return byName.get(name)!.default as FlagDefaults[Name];
}
export function flagByName(name: string): FlagSpec | undefined {
  return byName.get(name);
}
export function flagByShort(letter: string): FlagSpec | undefined {
  return byShort.get(letter) ?? (byName.get(letter)?.name.length === 1 ? byName.get(letter) : undefined);
}
