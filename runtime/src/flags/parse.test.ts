// The flag parser, table-driven: argv in, values / command / target / program arguments out, or
// the one-line usage error a user would see.
import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageError } from "../errors.js";
import { parseArgs } from "./parse.js";

const parsed: [argv: string[], expected: Partial<ReturnType<typeof parseArgs>>][] = [
  [["app.ts", "a", "--b"], { values: {}, target: "app.ts", args: ["a", "--b"] }],
  [["--watch", "app.ts"], { values: { watch: true }, target: "app.ts", args: [] }],
  [["-e", "1+1", "x"], { values: { eval: "1+1" }, target: undefined, args: ["x"] }],
  [["--define", "A:1", "-d", "B:2", "x.ts"], { values: { define: ["A:1", "B:2"] }, target: "x.ts" }],
  [["--console-depth=4", "x"], { values: { "console-depth": 4 }, target: "x" }],
  [["--inspect", "x.ts"], { values: { inspect: "" }, target: "x.ts" }],
  [["--inspect=9229", "x.ts"], { values: { inspect: "9229" }, target: "x.ts" }],
  [["run", "dev", "--", "--x"], { command: "run", target: "dev", args: ["--", "--x"] }],
  [["build", "a.ts", "--outdir", "d"], { command: "build", values: { outdir: "d" }, target: "a.ts" }],
  [["-bF", "a", "run", "x"], { values: { rt: true, filter: ["a"] }, command: "run", target: "x" }],
  // tsx's --tsconfig is --tsconfig-override
  [["--tsconfig", "t.json", "x.ts"], { values: { "tsconfig-override": "t.json" }, target: "x.ts" }],
  [["secrets", "list", "svc", "--json"], { command: "secrets", values: { json: true }, target: "list", args: ["svc"] }],
  [["secrets", "set", "--allow-empty", "svc", "n"], { command: "secrets", values: { "allow-empty": true }, target: "set", args: ["svc", "n"] }],
];
for (const [argv, expected] of parsed) {
  test(`rt ${argv.join(" ")}`, () => {
    const result = parseArgs(argv);
    for (const [key, value] of Object.entries(expected)) assert.deepEqual(result[key as keyof typeof result], value, key);
  });
}

const refused: [argv: string[], message: RegExp][] = [
  [["--nope", "x"], /^unknown flag --nope\. Run "rt --help"/],
  [["--title"], /^--title needs a value/],
  [["--console-depth", "deep", "x"], /^invalid value "deep" for --console-depth: expected a whole number >= 0$/],
  [["--console-depth=-1", "x"], /^invalid value "-1" for --console-depth/],
  [["--shell=bash", "x"], /^invalid value "bash" for --shell; valid values: system, rt$/],
  [["--title=a", "--title", "b", "x"], /^--title is given more than once; it takes one value$/],
  [["--tsconfig-override=a.json", "--tsconfig", "b.json", "x"], /^--tsconfig is given more than once; it takes one value$/],
];
for (const [argv, message] of refused) {
  test(`rt ${argv.join(" ")} is refused`, () => {
    assert.throws(
      () => parseArgs(argv),
      (error: unknown) => error instanceof UsageError && message.test(error.message),
    );
  });
}
