// The JSON Schema of rtfig.toml, generated from the flag table (committed as
// runtime/schema/rtfig.schema.json; a test keeps the file up to date). Editors and the language
// server validate and complete rtfig.toml with it.
import { configTableOf, FLAGS, type FlagSpec } from "../flags/table.js";
import { configNames } from "./keys.js";

type Schema = Record<string, unknown>;

export function rtfigSchema(): Schema {
  const top: Record<string, Schema> = {};
  const run: Record<string, Schema> = {};
  for (const flag of FLAGS) {
    const table = configTableOf(flag);
    if (table === undefined) continue;
    for (const name of configNames(flag)) (table === "run" ? run : top)[name] = flagSchema(flag);
  }
  top.run = {
    type: "object",
    description: "Defaults for the script runner (rt run)",
    properties: run,
    additionalProperties: false,
  };
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "rtfig.toml",
    description: "rt's project configuration: defaults for rt's command-line flags (the command line wins). Keys are kebab-case or camelCase.",
    type: "object",
    properties: top,
    additionalProperties: false,
  };
}

function flagSchema(flag: FlagSpec): Schema {
  const schema: Schema = { description: flag.help };
  if (flag.default !== undefined) schema.default = flag.default;
  switch (flag.type) {
    case "boolean":
      return { ...schema, type: "boolean" };
    case "number":
      return { ...schema, type: "integer", ...(flag.min !== undefined && { minimum: flag.min }), ...(flag.max !== undefined && { maximum: flag.max }) };
    case "string":
      return { ...schema, type: "string", ...(flag.values && { enum: flag.values }) };
    case "list": {
      const item: Schema = { type: "string", ...(flag.values && { enum: flag.values }) };
      const forms: Schema[] = [item, { type: "array", items: item }];
      if (flag.keyed) forms.push({ type: "object", additionalProperties: { type: "string", ...(flag.keyed.values && { enum: flag.keyed.values }) } });
      return { ...schema, anyOf: forms };
    }
  }
}
