// Stack traces: V8's format and stack-trace API with original TypeScript positions, the
// uncaught-error preview (golden files, colours on and off) and rt.inspect.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, test } from "node:test";
import { FIXTURES, REPO, RT_BIN, rt, runOk, skipUnlessCI, tempDir } from "./rt.mjs";

const DIR = path.join(FIXTURES, "diagnostics");
const version = JSON.parse(readFileSync(path.join(REPO, "runtime", "package.json"), "utf8")).version;
const trailer = `rt v${version} (Node.js ${process.version}, ${process.platform} ${process.arch})`;

/** Compares with a golden file (paths made relative to the fixture); UPDATE_GOLDEN=1 rewrites it. */
function golden(name, actual) {
  const file = path.join(REPO, "runtime", "test", "golden", name);
  const normalized = actual
    .replaceAll(`${DIR}/`, "<fixtures>/")
    .replaceAll(version, "<version>")
    .replaceAll(process.version, "<node>")
    .replaceAll(`${process.platform} ${process.arch}`, "<platform>");
  if (process.env.UPDATE_GOLDEN) writeFileSync(file, normalized);
  assert.equal(normalized, readFileSync(file, "utf8"));
}

describe("the V8 stack-trace API with original positions", () => {
  const frames = JSON.parse(runOk(DIR, ["callsites.ts"]));
  const at = (file, line, column) => `${path.join(DIR, file)}:${line}:${column}`;
  const describeFrame = { file: "describe.ts", line: 7, column: 17, function: "capture", toplevel: true };

  test("every frame of a transpiled file reports its .ts line and column (type-only lines above)", () => {
    assert.deepEqual(
      frames.constructor.map((f) => [f.function, f.line, f.column, f.file, f.script]),
      [
        ["capture", 7, 17, "describe.ts", "describe.ts"],
        ["Square", 12, 19, "callsites.ts", "callsites.ts"],
      ],
    );
  });

  test("constructors: isConstructor, `new` in toString", () => {
    const site = frames.constructor[1];
    assert.deepEqual([site.constructor, site.toplevel, site.text], [true, false, `new Square (${at("callsites.ts", 12, 19)})`]);
  });

  test("methods: getTypeName, getMethodName, getFunctionName", () => {
    const site = frames.staticMethod[1];
    assert.deepEqual([site.type, site.method, site.function, site.line, site.column], ["Square", "measure", "measure", 18, 12]);
    assert.equal(site.text, `Square.measure (${at("callsites.ts", 18, 12)})`);
  });

  test("async frames: isAsync after an await, `async` in toString", () => {
    assert.deepEqual(
      frames.async.map((f) => [f.function, f.async, f.line, f.column]),
      [
        ["capture", false, 7, 17],
        ["later", false, 24, 10],
        ["outer", true, 28, 26],
      ],
    );
    assert.equal(frames.async[2].text, `async outer (${at("callsites.ts", 28, 26)})`);
  });

  test("Promise.all frames: isPromiseAll and getPromiseIndex", () => {
    const site = frames.promiseAll[2];
    assert.deepEqual([site.promiseAll, site.promiseIndex, site.async, site.text], [true, 0, true, "async Promise.all (index 0)"]);
    assert.equal(frames.constructor[1].promiseIndex, null);
  });

  test("native frames: no file, `(<anonymous>)`", () => {
    const [, callback, map] = frames.native;
    assert.deepEqual([callback.line, callback.column, callback.function], [37, 25, null]);
    assert.deepEqual([map.function, map.type, map.file, map.line, map.native, map.text], ["map", "Array", null, null, false, "Array.map (<anonymous>)"]);
  });

  test("eval frames: isEval; the origin in toString points at the original line; getEvalOrigin is undefined", () => {
    const site = frames.eval[1];
    assert.deepEqual([site.eval, site.line, site.column, "evalOrigin" in site], [true, 1, 1, false]);
    assert.equal(site.text, `eval (eval at <anonymous> (${at("callsites.ts", 38, 9)}), <anonymous>:1:1)`);
  });

  test("the first frame is the capturing helper, also in another file", () => {
    for (const list of Object.values(frames)) assert.deepEqual(Object.fromEntries(Object.keys(describeFrame).map((k) => [k, list[0][k]])), describeFrame);
  });

  test("getThis and getFunction in sloppy CommonJS code", () => {
    assert.deepEqual(JSON.parse(runOk(DIR, ["sloppy.cts"])), { thisName: "receiver", functionName: "run", line: 9, column: 18 });
  });

  test("a program's prepareStackTrace: its value becomes error.stack; unsetting and restoring it work", () => {
    assert.equal(
      runOk(DIR, ["user-prepare.ts"]),
      "custom @ deeper:8:10 < top:12:10 < <top>:15:13 < run:561:25 < <top>:647:26\nError: default again\nrestored\n",
    );
  });

  test("Error.captureStackTrace(obj, fn) starts at fn's caller and uses obj's name and message", () => {
    assert.equal(runOk(DIR, ["capture-stack.ts"]), `Custom: from captureStackTrace\n    at caller (${at("capture-stack.ts", 6, 3)})\n`);
  });

  test("a prepareStackTrace that throws: the error is still reported, with rt's stack", () => {
    const result = rt(["throwing-prepare.ts"], { cwd: DIR });
    assert.equal(result.stdout, `Error: still reported\n    at fail (${at("throwing-prepare.ts", 8, 9)})\n`);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^Error: still reported\n {4}at fail \(.*throwing-prepare\.ts:8:9\)$/m);
  });

  test("errors from rt's own code carry no rt frames", () => {
    const result = rt(["-e", "try { await import('./nowhere.ts') } catch (e) { console.log(e.stack) }"], { cwd: DIR });
    assert.equal(result.stdout, `error: Cannot find module './nowhere.ts' from '${path.join(DIR, "[eval]")}'\n`);
  });

  test("a cache entry whose source map was tampered with is a miss: compiled again, original positions", (t) => {
    const cache = path.join(tempDir(t), "cache");
    const env = { RT_TRANSPILER_CACHE_PATH: cache };
    const program = "type T = 1;\n\n\nconsole.log(new Error('x').stack.split('\\n')[1])";
    const first = rt(["-e", program], { cwd: DIR, env });
    assert.equal(first.stdout, `    at Object.<anonymous> (${path.join(DIR, "[eval]")}:4:13)\n`, "original line 4 while the map is intact");
    const [entry] = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && !e.name.startsWith("."));
    const file = path.join(entry.parentPath, entry.name);
    const tampered = readFileSync(file, "latin1").replace(/base64,[^\n]*/, "base64,bm90IGpzb24=");
    writeFileSync(file, tampered, "latin1");
    const result = rt(["-e", program], { cwd: DIR, env });
    assert.deepEqual([result.code, result.stderr], [0, ""]);
    assert.equal(result.stdout, `    at Object.<anonymous> (${path.join(DIR, "[eval]")}:4:13)\n`, "original line 4 again");
    assert.notEqual(readFileSync(file, "latin1"), tampered, "the entry was written again");
  });

  test("a large file's source map is a file beside its cache entry: original positions when transpiled, from the cache, and once the map is gone", (t) => {
    const dir = tempDir(t);
    // A cache path with a space and a quote: the map's name in the code is percent-encoded.
    const cache = path.join(dir, "user's cache");
    const env = { RT_TRANSPILER_CACHE_PATH: cache };
    // ~60 KB of TypeScript whose types move every column, then a throw on line 1,503.
    const filler = Array.from({ length: 1500 }, (_, i) => `export const value${i}: Readonly<Record<string, number>> = { n: ${i} };`);
    writeFileSync(
      path.join(dir, "large.ts"),
      `${filler.join("\n")}\nexport function fail(): never {\n  const why: string = "deep";\n  throw new Error(why);\n}\n`,
    );
    writeFileSync(
      path.join(dir, "main.ts"),
      'import { fail } from "./large.ts";\ntry { fail(); } catch (error: unknown) { console.log((error as Error).stack!.split("\\n")[1]); }\n',
    );
    const expected = `    at fail (${path.join(dir, "large.ts")}:1503:9)\n`;
    const maps = () =>
      readdirSync(cache, { recursive: true, withFileTypes: true })
        .filter((e) => e.name.endsWith(".map"))
        .map((e) => path.join(e.parentPath, e.name));
    assert.equal(runOk(dir, ["main.ts"], env), expected, "transpiled now");
    const [map, ...others] = maps();
    assert.deepEqual(others, [], "one map beside an entry: the large file's (the small one's stays inline)");
    assert.deepEqual(JSON.parse(readFileSync(map, "utf8")).sources, [pathToFileURL(path.join(dir, "large.ts")).href], "it names the file it maps");
    assert.equal(runOk(dir, ["main.ts"], env), expected, "from the cache");
    rmSync(map);
    assert.equal(runOk(dir, ["main.ts"], env), expected, "the entry without its map is a miss, transpiled again");
    assert.deepEqual(maps(), [map], "and the map written again");
  });

  test("a JavaScript file whose inline source map is corrupt: generated positions, no crash", (t) => {
    const dir = tempDir(t);
    writeFileSync(
      path.join(dir, "bad-map.js"),
      'console.log(new Error("x").stack.split("\\n")[1]);\n//# sourceMappingURL=data:application/json;base64,bm90IGpzb24=\n',
    );
    const result = rt(["bad-map.js"], { cwd: dir });
    assert.deepEqual([result.code, result.stderr], [0, ""]);
    assert.equal(result.stdout, `    at Object.<anonymous> (${path.join(dir, "bad-map.js")}:1:13)\n`);
  });
});

describe("uncaught errors print a preview of the original source", () => {
  test("an uncaught exception in a .ts file: preview, error, stack, versions; exit 1 (golden)", () => {
    const result = rt(["uncaught.ts"], { cwd: DIR });
    assert.deepEqual([result.code, result.stdout], [1, "before\n"]);
    assert.ok(result.stderr.endsWith(`\n\n${trailer}\n`));
    golden("uncaught.txt", result.stderr);
  });

  test("the same with colours: FORCE_COLOR, syntax highlighting (golden)", () => {
    const result = rt(["uncaught.ts"], { cwd: DIR, env: { FORCE_COLOR: "1", NO_COLOR: undefined } });
    assert.match(result.stderr, /\x1b\[35mthrow\x1b\[0m/, "keywords highlighted");
    golden("uncaught.color.txt", result.stderr);
  });

  test("on a terminal (a real pseudo-terminal through script(1)) the preview is coloured", (t) => {
    if (spawnSync("script", ["--version"]).error) return skipUnlessCI(t, "script(1) from util-linux is not installed");
    const command = [process.execPath, "--", RT_BIN, "uncaught.ts"].map((arg) => `'${arg}'`).join(" ");
    // A terminal emulator names itself in TERM; without it Node counts the terminal as 2-colour.
    const env = { ...process.env, TERM: "xterm-256color", FORCE_COLOR: "", NO_COLOR: "", RT_TRANSPILER_CACHE_PATH: "0" };
    delete env.FORCE_COLOR;
    delete env.NO_COLOR;
    // Node counts any terminal as 2-colour when CI is set (tty.hasColors() is then false).
    delete env.CI;
    const result = spawnSync("script", ["-qec", command, "/dev/null"], { cwd: DIR, env, encoding: "utf8", input: "" });
    assert.match(result.stdout, /\x1b\[35mthrow\x1b\[0m/);
    assert.match(result.stdout, /\x1b\[2mrt v/);
  });

  test("NO_COLOR and a pipe mean no colours", () => {
    assert.doesNotMatch(rt(["uncaught.ts"], { cwd: DIR, env: { NO_COLOR: "1" } }).stderr, /\x1b\[/);
  });

  test("an unhandled rejection: preview of the async function's line; exit 1 (golden)", () => {
    const result = rt(["rejection.ts"], { cwd: DIR });
    assert.deepEqual([result.code, result.stdout], [1, "start\n"]);
    golden("rejection.txt", result.stderr);
  });

  test("a .tsx file (golden)", () => {
    const result = rt(["--jsx-runtime=classic", "component.tsx"], { cwd: DIR });
    assert.deepEqual([result.code, result.stdout], [1, '{"type":"button","props":null}\n']);
    golden("component-tsx.txt", result.stderr);
  });
});

describe("rt.inspect", () => {
  test("errors: preview, message, stack, own properties, cause and AggregateError.errors; other values like util.inspect (golden)", () => {
    const out = runOk(DIR, ["inspect.ts"]);
    assert.match(out, /\[cause\]: RangeError: inner/);
    assert.match(out, /\[errors\]: \[\n\s+Error: first/);
    assert.match(out, /\{ nested: \{ deep: \{ deeper: \[Object\] \} \}, list: \[ 1, 'two' \] \}\n'text' 42\n$/);
    golden("inspect.txt", out);
  });

  test("colours only when asked", () => {
    const plain = runOk(DIR, ["-e", "console.log(rt.inspect(new Error('x')).includes('\\x1b['))"]);
    const colored = runOk(DIR, ["-e", "console.log(rt.inspect(new Error('x'), { colors: true }).includes('\\x1b['))"]);
    assert.deepEqual([plain, colored], ["false\n", "true\n"]);
  });

  test('import { inspect } from "rt" is the same function', () => {
    assert.equal(runOk(DIR, ["-e", "import { inspect } from 'rt'; console.log(inspect === rt.inspect, inspect([1]))"]), "true [ 1 ]\n");
  });

  test("an error from a copied fixture elsewhere reads that copy's source", (t) => {
    const dir = tempDir(t);
    cpSync(path.join(DIR, "uncaught.ts"), path.join(dir, "copy.ts"));
    const result = rt(["copy.ts"], { cwd: dir });
    assert.match(result.stderr, /^11 \| {5}throw new Error\(`too many retries: \$\{n\}`\);$/m);
  });
});
