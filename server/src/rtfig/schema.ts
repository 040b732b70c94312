// rtfig.toml's JSON Schema, as the runtime generates it from the flag table (rt/rtfig.schema.json),
// and a validator for the part of draft-07 that schema uses (type, enum, minimum, anyOf,
// properties, additionalProperties, items). Small and exact: every problem comes back with the
// path of the value it concerns, so it can be underlined where it is written, worded as rt words it.
import schemaJson from "rt/rtfig.schema.json";

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

export function validate(value: unknown, schema: Schema, path: Path, problems: SchemaProblem[]): void {
  if (schema.type === "object" && schema.properties && isTable(value)) {
    for (const [key, entry] of Object.entries(value)) {
      const property = schema.properties[key] ?? (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
      if (property) validate(entry, property, [...path, key], problems);
      else problems.push({ path: [...path, key], kind: "unknown-key", message: `unknown key "${shownPath([...path, key])}"` });
    }
    return;
  }
  // A list or a keyed table: each wrong entry is its own problem, underlined where it is written.
  const forms = schema.anyOf ?? [schema];
  const list = forms.find((form) => form.type === "array")?.items;
  if (Array.isArray(value) && list) {
    value.forEach((item, index) => validate(item, list, [...path, index], problems));
    return;
  }
  const entries = forms.find((form) => form.type === "object" && typeof form.additionalProperties === "object")?.additionalProperties;
  if (isTable(value) && typeof entries === "object") {
    for (const [key, entry] of Object.entries(value)) validate(entry, entries, [...path, key], problems);
    return;
  }
  if (!matches(value, schema)) problems.push({ path, kind: "invalid-value", message: `invalid value for "${shownPath(path)}": expected ${expected(schema)}, got ${describe(value)}` });
}

/** `run.shell`, `preload[1]`, `loader.".dat"`: a path as it would be written in TOML. */
export function shownPath(path: Path): string {
  return path.map((key, index) => (typeof key === "number" ? `[${key}]` : `${index ? "." : ""}${/^[\w-]+$/.test(key) ? key : `'${key}'`}`)).join("");
}

function matches(value: unknown, schema: Schema): boolean {
  if (schema.anyOf) return schema.anyOf.some((form) => matches(value, form));
  switch (schema.type) {
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return typeof value === "number" && Number.isInteger(value) && (schema.minimum === undefined || value >= schema.minimum);
    case "string":
      return typeof value === "string" && (!schema.enum || schema.enum.includes(value));
    case "array":
      return Array.isArray(value) && (!schema.items || value.every((item) => matches(item, schema.items!)));
    case "object":
      return isTable(value) && Object.values(value).every((entry) => typeof schema.additionalProperties !== "object" || matches(entry, schema.additionalProperties));
    default:
      return true;
  }
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
