// The flag table's derived answers: which command takes which flag (COMMANDS[...].takes, the one
// statement of it), where rtfig.toml may hold a flag, and the values' types.
import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageError } from "../errors.js";
import { COMMANDS, commandsTaking, configTableOf, flagByName, flagDefault, FLAG_GROUPS, FLAGS, type FlagValues } from "./table.js";
import { assertFlagsFitCommand, parseArgs } from "./parse.js";

test("every flag is taken by some command, and every group is named by some command's takes", () => {
  for (const flag of FLAGS) assert.notDeepEqual(commandsTaking(flag), [], `--${flag.name} is taken by no command`);
  const named = new Set(Object.values(COMMANDS).flatMap(({ takes }) => takes.groups));
  for (const group of Object.keys(FLAG_GROUPS)) assert.ok(named.has(group as keyof typeof FLAG_GROUPS), `no command takes the ${group} group`);
});

const fits: [argv: string[], refusal?: RegExp][] = [
  [["--smol", "--define", "A:1", "app.ts"]],
  [["run", "--json"]],
  [["build", "a.ts", "--outdir", "d", "--define", "A:1", "--watch", "--config", "c.toml"]],
  [["secrets", "list", "svc", "--json"]],
  [["build", "a.ts", "--smol"], /^--smol does not apply to rt build \(it is a flag for running programs\)$/],
  [["secrets", "get", "a", "b", "--define", "X:1"], /^--define does not apply to rt secrets/],
  [["--outdir", "d", "a.ts"], /^--outdir is a flag of "rt build": rt build --outdir \.\.\.$/],
  [["run", "--allow-empty", "a.ts"], /^--allow-empty is a flag of "rt secrets"/],
  [["secrets", "list", "--minify"], /^--minify is a flag of "rt build"/],
];
for (const [argv, refusal] of fits) {
  test(`rt ${argv.join(" ")} ${refusal ? "is refused" : "fits its command"}`, () => {
    const check = () => assertFlagsFitCommand(parseArgs(argv));
    if (refusal) assert.throws(check, (error: unknown) => error instanceof UsageError && refusal.test(error.message));
    else assert.doesNotThrow(check);
  });
}

test("rtfig.toml holds defaults only for flags rt run takes that describe no single invocation", () => {
  const table = (name: string) => configTableOf(flagByName(name)!);
  assert.deepEqual(["smol", "shell", "help", "outdir", "allow-empty"].map(table), ["", "run", undefined, undefined, undefined]);
});

test("values and defaults are typed from the table", () => {
  const values: FlagValues = parseArgs(["--elide-lines=3", "--dns-result-order=ipv4first", "-F", "a", "x.ts"]).values;
  const lines: number = values["elide-lines"] ?? flagDefault("elide-lines");
  const order: "verbatim" | "ipv4first" | "ipv6first" | undefined = values["dns-result-order"];
  const filter: string[] | undefined = values.filter;
  assert.deepEqual([lines, order, filter, flagDefault("shell")], [3, "ipv4first", ["a"], "system"]);
  // @ts-expect-error --port has no default: flagDefault cannot promise a number
  assert.equal(flagDefault("port"), undefined);
  // @ts-expect-error a number flag's value is no string
  const port: string | undefined = values.port;
  assert.equal(port, undefined);
});
