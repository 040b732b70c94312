import assert from "node:assert/strict";
import { describe, it } from "node:test";

interface Person {
  readonly name: string;
}
const greet = (person: Person): string => `hello ${person.name}`;

describe("greet", () => {
  it("greets by name", () => assert.equal(greet({ name: "ada" }), "hello ada"));
});
