// rtfig.toml's JSON Schema, as the runtime generates it from the flag table (rt-runtime/rtfig.schema.json),
// validated with ajv; every problem comes back with the path of the value it concerns, so it can
// be underlined where it is written, worded as rt words it.
import type { ErrorObject } from "ajv";
import schemaJson from "rt-runtime/rtfig.schema.json";
// ajv's validator for that schema, compiled when the server is built (compiling it at run time
// costs hundreds of milliseconds): server/build.mjs.
import validateRtfig from "rtfig-schema-validator";

export interface Schema {
  readonly type?: "object" | "array" | "string" | "integer" | "boolean";
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly string[];
  readonly minimum?: number;
  readonly anyOf?: readonly Schema[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly additionalProperties?: boolean | Schema;
  readonly items?: Schema;
}

export const RTFIG_SCHEMA = schemaJson as Schema;

export type Path = readonly (string | number)[];

export interface SchemaProblem {
  readonly path: Path;
  /** An unknown key is a warning (rt ignores it); a wrong value an error (rt refuses the file). */
  readonly kind: "unknown-key" | "invalid-value";
  readonly message: string;
}

/** The schema of `table` ([] is the top level, ["run"] the [run] table). */
export function tableSchema(table: readonly string[]): Schema | undefined {
  let schema: Schema | undefined = RTFIG_SCHEMA;
  for (const key of table) schema = schema?.properties?.[key];
  return schema?.type === "object" ? schema : undefined;
}

/**
 * The problems of `value` under rtfig.toml's schema, validated by ajv. ajv reports every failed
 * keyword; rt reports each value once, where it is written: an unknown key at the key, a wrong
 * value at the value, and in a list or a keyed table each wrong entry by itself.
 */
export function schemaProblems(value: unknown): SchemaProblem[] {
  if (validateRtfig(value)) return [];
  const errors = validateRtfig.errors ?? [];
  const problems = new Map<string, SchemaProblem>();
  const add = (path: Path, problem: Omit<SchemaProblem, "path">) => {
    const key = JSON.stringify(path);
    if (!problems.has(key)) problems.set(key, { path, ...problem });
  };
  // The errors under an anyOf are its branches' reasons; the anyOf decides what is reported.
  const anyOfs = errors.filter((error) => error.keyword === "anyOf");
  const branchOf = (error: ErrorObject) => anyOfs.find((anyOf) => error !== anyOf && error.schemaPath.startsWith(`${anyOf.schemaPath}/`));
  for (const error of errors) {
    const path = pathOf(error.instancePath);
    if (error.keyword === "additionalProperties") {
      const key = (error.params as { additionalProperty: string }).additionalProperty;
      add([...path, key], { kind: "unknown-key", message: `unknown key "${shownPath([...path, key])}"` });
      continue;
    }
    if (error.keyword === "anyOf") {
      // A list or keyed table whose container matched: its wrong entries are reported instead.
      const entries = errors.filter((entry) => branchOf(entry) === error && entry.instancePath.length > error.instancePath.length);
      if (entries.length === 0) add(path, invalidValue(path, error, value));
      continue;
    }
    const anyOf = branchOf(error);
    if (anyOf && error.instancePath === anyOf.instancePath) continue;
    add(path, invalidValue(path, error, value));
  }
  return [...problems.values()];
}

/** `/run/shell` → ["run", "shell"]; array indexes become numbers. */
function pathOf(pointer: string): Path {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** The problem of the value `error` is about, worded from the schema that holds the failed keyword. */
function invalidValue(path: Path, error: ErrorObject, root: unknown): Omit<SchemaProblem, "path"> {
  // "#/properties/run/properties/shell/enum": the keyword's schema is the pointer without its last part.
  let schema: unknown = RTFIG_SCHEMA;
  for (const part of pathOf(error.schemaPath.slice(1)).slice(0, -1)) schema = (schema as Record<string | number, unknown>)[part];
  let value: unknown = root;
  for (const part of path) value = (value as Record<string | number, unknown>)[part];
  return { kind: "invalid-value", message: `invalid value for "${shownPath(path)}": expected ${expected(schema as Schema)}, got ${describe(value)}` };
}

/** `run.shell`, `preload[1]`, `loader.".dat"`: a path as it would be written in TOML. */
export function shownPath(path: Path): string {
  return path.map((key, index) => (typeof key === "number" ? `[${key}]` : `${index ? "." : ""}${/^[\w-]+$/.test(key) ? key : `'${key}'`}`)).join("");
}

/** What a schema accepts, in rt's words ("a whole number >= 0", "one of system, rt"). */
export function expected(schema: Schema): string {
  if (schema.anyOf) return schema.anyOf.map(expected).join(", or ");
  switch (schema.type) {
    case "boolean":
      return "true or false";
    case "integer":
      return `a whole number${schema.minimum === undefined ? "" : ` >= ${schema.minimum}`}`;
    case "string":
      return schema.enum ? `one of ${schema.enum.join(", ")}` : "a string";
    case "array":
      return `an array of ${schema.items ? plural(expected(schema.items)) : "values"}`;
    case "object":
      return `a table${typeof schema.additionalProperties === "object" ? ` of ${plural(expected(schema.additionalProperties))}` : ""}`;
    default:
      return "a value";
  }
}

function plural(phrase: string): string {
  return phrase.replace(/^a string$/, "strings").replace(/^one of /, "values among ");
}

export function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (isTable(value)) return "a table";
  if (value instanceof Date) return "a date";
  return JSON.stringify(value) ?? String(value);
}

export function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
