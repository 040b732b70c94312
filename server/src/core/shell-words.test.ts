// How the language server reads a package.json script: commands split at && || ; | with each
// word's text (quotes removed) and its offsets in the script, for hovers and diagnostics.
import assert from "node:assert/strict";
import { test } from "node:test";
import { splitCommands } from "./shell-words.js";

const texts = (script: string) => splitCommands(script).map((command) => command.words.map((word) => word.text));

test("commands split at &&, ||, ; and |, assignments before the program skipped", () => {
  assert.deepEqual(texts("FOO=1 rt run build && echo 'a b' | tee x; rt --watch app.ts || true"), [
    ["rt", "run", "build"],
    ["echo", "a b"],
    ["tee", "x"],
    ["rt", "--watch", "app.ts"],
    ["true"],
  ]);
});

test("each word knows where it is written", () => {
  const script = `echo "quoted word" plain`;
  const [command] = splitCommands(script);
  for (const word of command!.words) assert.match(script.slice(word.start, word.end), new RegExp(word.text.replace(/ /g, " ")));
  assert.deepEqual(
    command!.words.map((word) => [word.start, word.end]),
    [
      [0, 4],
      [5, 18],
      [19, 24],
    ],
  );
});
