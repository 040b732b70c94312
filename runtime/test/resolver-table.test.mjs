// The resolution algorithm as one table (issue 18): each row is a specifier, how it is loaded
// (import or require) and the file it must name, or the error code it must fail with. The rows
// run in one rt process over a small project written from the table's file list, resolving
// through rt's module hooks (import.meta.resolve and require.resolve take the same path as
// import and require).
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { rt, tempDir } from "./rt.mjs";

/** The project, shared with the policy's unit table: path → contents (package.json files as objects; a symbolic link as { link: target }). */
const FILES = JSON.parse(readFileSync(new URL("../src/loader/resolution-project.json", import.meta.url), "utf8"));

/** [specifier, loaded by, expected file (relative) or error code]. */
const ROWS = [
  ["./both", "import", "both.tsx"],
  ["./both", "require", "both.tsx"],
  ["./out.js", "import", "out.ts"],
  ["./real.js", "import", "real.js"],
  ["./target.js", "import", "target.ts"],
  ["./dir", "import", "dir/index.ts"],
  ["./main-dir", "import", "main-dir/start.ts"],
  ["./what%3F.ts", "import", "what?.ts"],
  ["./what?.ts", "require", "what?.ts"],
  ["./both.ts?raw", "import", "both.ts?raw"],
  ["./missing", "import", "ERR_MODULE_NOT_FOUND"],
  ["./missing", "require", "MODULE_NOT_FOUND"],
  ["@/a", "import", "src/a.ts"],
  ["@/a?v=1", "import", "src/a.ts?v=1"],
  ["~lib", "require", "src/lib.ts"],
  ["plain", "import", "node_modules/plain/lib/index.js"],
  ["plain/sub", "import", "node_modules/plain/sub.js"],
  ["plain/sub", "require", "node_modules/plain/sub.js"],
  ["plain/only-dir", "import", "node_modules/plain/only-dir/index.js"],
  ["plain/nested", "import", "node_modules/plain/lib/nested.js"],
  ["plain/missing", "import", "ERR_MODULE_NOT_FOUND"],
  ["plain/missing", "require", "MODULE_NOT_FOUND"],
  ["exp", "import", "node_modules/exp/dist/index.js"],
  ["exp/feature", "import", "node_modules/exp/dist/feature.ts"],
  ["exp/feature", "require", "node_modules/exp/dist/feature.ts"],
  ["exp/other", "import", "ERR_PACKAGE_PATH_NOT_EXPORTED"],
  ["src-main", "import", "node_modules/src-main/src/index.ts"],
  ["src-main", "require", "node_modules/src-main/src/index.ts"],
  ["@lib", "import", "ERR_MODULE_NOT_FOUND"],
  ["not-installed", "require", "MODULE_NOT_FOUND"],
  ["node:path", "import", "node:path"],
];

const PROBE = `import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL(".", import.meta.url));
for (const [specifier, how] of JSON.parse(process.argv[2])) {
  let shown;
  try {
    const found = how === "import" ? import.meta.resolve(specifier) : require.resolve(specifier);
    // import.meta.resolve gives a URL (maybe with a ?query), require.resolve a path.
    const url = found.startsWith("file:") ? new URL(found) : undefined;
    const file = url ? fileURLToPath(new URL(url.pathname, url)) : found;
    shown = file.startsWith(root) ? file.slice(root.length) + (url?.search ?? "") : file;
  } catch (error) {
    shown = error.code;
  }
  console.log(\`\${specifier} (\${how}) -> \${shown}\`);
}
`;

test("the resolution table: relative, URL, tsconfig paths, packages with and without exports, errors", (t) => {
  const dir = realpathSync(tempDir(t));
  for (const [file, contents] of Object.entries({ ...FILES, "probe.mjs": PROBE })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    if (typeof contents === "object" && "link" in contents) symlinkSync(path.join(dir, path.relative("/app", contents.link)), path.join(dir, file));
    else writeFileSync(path.join(dir, file), typeof contents === "string" ? contents : JSON.stringify(contents));
  }
  const result = rt(["--no-install", "probe.mjs", JSON.stringify(ROWS.map(([specifier, how]) => [specifier, how]))], { cwd: dir });
  assert.equal(result.stderr, "");
  assert.deepEqual(
    result.stdout.trimEnd().split("\n"),
    ROWS.map(([specifier, how, expected]) => `${specifier} (${how}) -> ${expected}`),
  );
});
