// What a project's tsconfig.json names ("types": ["node", "rt-runtime"]): programs import the
// "rt" module (rt's loader serves it; no package of that name is installed) and use the `rt`
// global, both declared in rt.d.ts.
declare module "rt" {
  export * from "rt-runtime/types/rt";
  export { default } from "rt-runtime/types/rt";
}
