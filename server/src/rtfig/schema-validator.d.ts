// The module server/build.mjs generates: ajv's standalone validator for rtfig.schema.json.
declare module "rtfig-schema-validator" {
  import type { ValidateFunction } from "ajv";
  const validate: ValidateFunction;
  export default validate;
}
