// The documentation stays true: README.md is the short front page, the manual lives in docs/,
// the flag reference is the flag table's, links resolve, and the architecture map names the
// folders and files that exist.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const read = (file) => readFileSync(path.join(repo, file), "utf8");
const pages = [
  "README.md",
  "extension/README.md",
  ...readdirSync(path.join(repo, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const tracked = execFileSync("git", ["ls-files"], { cwd: repo, encoding: "utf8" }).split("\n").filter(Boolean);

test("docs/flags.md is generated from the flag table (npm run docs rewrites it)", () => {
  const generated = execFileSync(process.execPath, [path.join(repo, "runtime/bin/rt.cjs"), "runtime/scripts/flag-reference.mjs", "--check"], {
    cwd: repo,
    encoding: "utf8",
  });
  assert.equal(read("docs/flags.md"), generated, "docs/flags.md differs from the flag table: run `npm run docs`");
});

test("README.md is a front page: at most 200 lines, one page per area under docs/", () => {
  const readme = read("README.md");
  assert.ok(readme.split("\n").length <= 200, `README.md has ${readme.split("\n").length} lines`);
  for (const area of ["running", "scripts", "secrets", "debugging", "configuration", "build", "networking", "editor", "flags", "architecture"]) {
    assert.ok(pages.includes(`docs/${area}.md`), `docs/${area}.md exists`);
    assert.match(readme, new RegExp(`\\]\\(docs/${area}\\.md\\)`), `README.md links docs/${area}.md`);
  }
});

test("no Markdown file holds merge-conflict markers", () => {
  for (const file of tracked.filter((name) => name.endsWith(".md"))) {
    assert.doesNotMatch(read(file), /^(<{7}|>{7}) |^={7}$/m, `${file} has a merge-conflict marker`);
  }
});

test("every relative link of the READMEs and docs/ names a file of the repository", () => {
  for (const page of pages) {
    for (const [, target] of read(page).matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      assert.ok(existsSync(path.join(repo, path.dirname(page), target)), `${page} links ${target}, which does not exist`);
    }
  }
});

test("the architecture map names every source folder, and every file it names exists", () => {
  const map = read("docs/architecture.md");
  const folders = [
    ...readdirSync(path.join(repo, "runtime/src"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}/`),
    ...["debug-adapter", "server"].flatMap((pkg) =>
      readdirSync(path.join(repo, pkg, "src"), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${entry.name}/`),
    ),
  ];
  for (const folder of folders) assert.ok(map.includes(folder), `docs/architecture.md names ${folder}`);
  const start = map.indexOf("```");
  const block = map.slice(start, map.indexOf("```", start + 3));
  for (const [name] of block.matchAll(/[\w.-]+(?:\/[\w.-]+)*\.(?:ts|mjs|cjs)\b/g)) {
    assert.ok(
      tracked.some((file) => file === name || file.endsWith(`/${name}`) || existsSync(path.join(repo, "runtime", name))),
      `docs/architecture.md names ${name}, which is not in the repository`,
    );
  }
});
