// tsconfig's emitDecoratorMetadata (transpile/decorator-metadata.ts): files with decorators get
// TypeScript's design:type / design:paramtypes / design:returntype metadata, as under bun and tsc.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES, runOk } from "./rt.mjs";

const DIR = path.join(FIXTURES, "decorator-metadata");

test("emitDecoratorMetadata: constructor, property, parameter and return types reach reflect-metadata", () => {
  assert.deepEqual(JSON.parse(runOk(DIR, ["service.ts"])), {
    paramtypes: ["Logger", "Number"],
    name: "String",
    count: "Number",
    greet: ["String"],
    returns: "Boolean",
    // Positions still point into service.ts (TypeScript's source map, then esbuild's).
    where: "service.ts:30:15",
  });
});

test("without emitDecoratorMetadata the decorators run and no metadata is emitted", () => {
  assert.deepEqual(JSON.parse(runOk(DIR, ["--tsconfig-override", "tsconfig.no-metadata.json", "service.ts"])), { where: "service.ts:30:15" });
});
