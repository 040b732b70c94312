// When TypeScript lowers a file first (emitDecoratorMetadata), and with which class-field semantics.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decoratorMetadataOptions, hasDecorators } from "./decorator-metadata.js";

test("decoratorMetadataOptions: only with experimentalDecorators and emitDecoratorMetadata", () => {
  assert.equal(decoratorMetadataOptions({}), undefined);
  assert.equal(decoratorMetadataOptions({ emitDecoratorMetadata: true }), undefined);
  assert.equal(decoratorMetadataOptions({ experimentalDecorators: true }), undefined);
  assert.ok(decoratorMetadataOptions({ experimentalDecorators: true, emitDecoratorMetadata: true }));
});

test("useDefineForClassFields: explicit, else true from ES2022/ESNext or no target, as TypeScript and esbuild", () => {
  const fields = (options: Record<string, unknown>) =>
    decoratorMetadataOptions({ experimentalDecorators: true, emitDecoratorMetadata: true, ...options })!.useDefineForClassFields;
  assert.equal(fields({}), true);
  assert.equal(fields({ target: "ESNext" }), true);
  assert.equal(fields({ target: "ES2022" }), true);
  assert.equal(fields({ target: "es2024" }), true);
  assert.equal(fields({ target: "ES2021" }), false);
  assert.equal(fields({ target: "ES5" }), false);
  assert.equal(fields({ target: "ES2021", useDefineForClassFields: true }), true);
  assert.equal(fields({ target: "ESNext", useDefineForClassFields: false }), false);
});

const ROWS: [string, "ts" | "tsx" | "js" | "jsx", boolean][] = [
  ["@Injectable()\nclass A {}", "ts", true],
  ["class A {\n  @Column() name!: string;\n}", "ts", true],
  ["class A { constructor(@Inject(X) x: X) {} }", "ts", true],
  ["class A { constructor(a: A, @Inject(X) x: X) {} }", "tsx", true],
  ["/**\n * @param x a doc comment tag\n */\nfunction f(x: number) {}", "ts", false],
  ['const mail = "user@example.com";', "ts", false],
  ["@Injectable()\nclass A {}", "js", false],
];

for (const [source, loader, expected] of ROWS) {
  test(`hasDecorators(${JSON.stringify(source)}, ${loader}) → ${expected}`, () => assert.equal(hasDecorators(source, loader), expected));
}
