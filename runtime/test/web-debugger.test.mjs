// rt's web debugger in a real headless Chromium (Debian's chromium, driven by playwright-core):
// open the banner's link, set a breakpoint by clicking a line number, hit it, read a variable,
// evaluate in the console, step, continue. The screenshot is kept as a test artifact.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { startInspected } from "./cdp.mjs";
import { FIXTURES, REPO, skipUnlessCI, tempDir } from "./rt.mjs";
import { CHROMIUM_ARGS } from "../../test/support/chromium.mjs";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((file) => existsSync(file));
const ARTIFACTS = path.join(REPO, "test", ".artifacts");

/** The banner's browser link of a started rt, opened in headless Chromium; page and console errors are collected. */
async function openDebugger(t, run, edit = (link) => link) {
  await run.banner;
  const printed = /^Inspect in browser:\n {2}(\S+)$/m.exec(run.output.stderr)[1];
  assert.match(printed, /^http:\/\/127\.0\.0\.1:\d+\/#127\.0\.0\.1:\d+\/[0-9a-f-]{36}$/);
  const link = edit(printed);
  const { chromium } = await import("playwright-core");
  // Flags as the machine notes prescribe: no background traffic (the network is closed).
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  // Console errors too: a request the server answers with an error (a missing asset) shows here.
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto(link);
  return { page, errors };
}

test("the web debugger: breakpoint by clicking a line number, variables, console, step, continue", async (t) => {
  if (!CHROMIUM) return skipUnlessCI(t, "Chromium is not installed (Debian package chromium)");
  const run = startInspected(t, ["--inspect-brk", "app.ts"], { cwd: path.join(FIXTURES, "inspector") });
  const { page, errors } = await openDebugger(t, run);

  // --inspect-brk: paused on the entry's first statement, shown in the original TypeScript.
  const status = page.getByTestId("status");
  await status.filter({ hasText: "Paused at app.ts:12" }).waitFor();
  assert.equal(await page.getByTestId("source-title").textContent(), path.join(FIXTURES, "inspector", "app.ts"));
  assert.equal(await page.locator(".line.paused").getAttribute("data-line"), "12");
  assert.equal(run.output.stdout, "", "nothing ran yet");

  // A breakpoint on `const sum: number = a + b;` by clicking its line number.
  await page.getByTestId("line-8").click();
  await page.locator(".gutter.breakpoint").filter({ hasText: /^8$/ }).waitFor();
  await page.getByTestId("resume").click();
  await status.filter({ hasText: "Paused at app.ts:8" }).waitFor();
  assert.equal(run.output.stdout, "before\n");
  await page.getByTestId("variable-a").filter({ hasText: "a: 2" }).waitFor();
  await page.getByTestId("variable-b").filter({ hasText: "b: 3" }).waitFor();

  // The console evaluates in the paused frame.
  await page.getByTestId("console-input").fill("a * 10 + b");
  await page.getByTestId("console-input").press("Enter");
  await page.getByTestId("console").locator(".input").filter({ hasText: "> a * 10 + b" }).waitFor();
  await page.getByTestId("console").locator(".result").filter({ hasText: /^23$/ }).waitFor();

  await page.getByTestId("step-over").click();
  await status.filter({ hasText: "Paused at app.ts:9" }).waitFor();
  await page.getByTestId("variable-sum").filter({ hasText: "sum: 5" }).waitFor();
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, "web-debugger.png") });

  await page.getByTestId("resume").click();
  // The program ended: rt waits for the page (as Node waits for its debuggers); the page shows the
  // exit code and lets it go.
  await status.filter({ hasText: "Exited with code 0" }).waitFor();
  const { code, stdout, stderr } = await run.exited;
  assert.deepEqual([code, stdout], [0, "before\ntotal 5\n"]);
  assert.ok(stderr.endsWith("Waiting for the debugger to disconnect...\n"));
  // It stays so while the page tries to reconnect (for rt --watch restarts).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(await status.textContent(), "Exited with code 0");
  assert.deepEqual(
    errors.filter((error) => !/WebSocket connection to .* failed/.test(error)),
    [],
  );
});

test("the page debugs the server that served it, whatever host its link's fragment names", async (t) => {
  if (!CHROMIUM) return skipUnlessCI(t, "Chromium is not installed (Debian package chromium)");
  const run = startInspected(t, ["--inspect-brk", "app.ts"], { cwd: path.join(FIXTURES, "inspector") });
  // A link crafted to point the page at some other debugger (here a port nothing listens on).
  const { page, errors } = await openDebugger(t, run, (link) => link.replace(/#[^/]+\//, "#127.0.0.1:1/"));
  await page.getByTestId("status").filter({ hasText: "Paused at app.ts:12" }).waitFor();
  // rt's own files stay out of the list (their prefixes come over the session now).
  assert.deepEqual(await page.getByTestId("files").locator("li").allTextContents(), ["inspector/app.ts"]);
  assert.deepEqual(errors, []);
});

test("the web debugger reconnects when rt --watch restarts the program, and sets its breakpoints in the new one", async (t) => {
  if (!CHROMIUM) return skipUnlessCI(t, "Chromium is not installed (Debian package chromium)");
  const dir = tempDir(t);
  writeFileSync(path.join(dir, "package.json"), `{ "type": "module" }\n`);
  const program = path.join(dir, "ticker.ts");
  writeFileSync(
    program,
    [
      'const version: string = "before";',
      "setInterval(() => {",
      '  if (version === "after") {',
      "    const seen: string = version;",
      '    console.log("seen", seen);',
      "  }",
      "}, 50);",
      "// Gone by itself should the test fail (its rt --watch supervisor is killed, not stopped).",
      "setTimeout(() => process.exit(0), 20_000).unref();",
      "",
    ].join("\n"),
  );
  const run = startInspected(t, ["--watch", "--no-clear-screen", "--inspect", "ticker.ts"], { cwd: dir });
  const { page, errors } = await openDebugger(t, run);
  const status = page.getByTestId("status");
  await status.filter({ hasText: "Running" }).waitFor();
  // Line 4 runs only in the edited program.
  await page.getByTestId("line-4").click();
  await page.locator(".gutter.breakpoint").filter({ hasText: /^4$/ }).waitFor();

  writeFileSync(program, readFileSync(program, "utf8").replace('= "before"', '= "after"'));
  // The page reconnects to the restarted program (same address) and sets line 4 again there.
  await status.filter({ hasText: "Paused at ticker.ts:4" }).waitFor({ timeout: 15_000 });
  await page.getByTestId("step-over").click();
  await status.filter({ hasText: "Paused at ticker.ts:5" }).waitFor();
  await page.getByTestId("variable-seen").filter({ hasText: "after" }).waitFor();
  assert.equal(run.output.stderr.split("Listening:").length, 3, "two banners: the first program's and the restarted one's");
  // (A retry while the restarted program is not listening yet is refused: the page retries.)
  assert.deepEqual(
    errors.filter((error) => !/WebSocket connection to .* failed/.test(error)),
    [],
  );
  run.child.kill("SIGTERM");
  await run.exited;
});

test("the web debugger's Pause stops in the program's code, not in Node's timers that call it", async (t) => {
  if (!CHROMIUM) return skipUnlessCI(t, "Chromium is not installed (Debian package chromium)");
  const dir = tempDir(t);
  writeFileSync(path.join(dir, "package.json"), `{ "type": "module" }\n`);
  writeFileSync(
    path.join(dir, "ticker.ts"),
    [
      "let n = 0;",
      "setInterval(() => {",
      "  n += 1;",
      "  const doubled: number = n * 2;",
      "  if (doubled < 0) console.log(doubled);",
      "}, 20);",
      "setTimeout(() => process.exit(0), 20_000).unref();",
      "",
    ].join("\n"),
  );
  const run = startInspected(t, ["--inspect", "ticker.ts"], { cwd: dir });
  const { page, errors } = await openDebugger(t, run);
  const status = page.getByTestId("status");
  for (const _ of [1, 2]) {
    await status.filter({ hasText: "Running" }).waitFor();
    await page.getByTestId("pause").click();
    // Between two ticks the program is idle: V8 stops first in Node's timer code; the page steps on.
    await status.filter({ hasText: /^Paused/ }).waitFor();
    assert.equal(await status.textContent(), "Paused at ticker.ts:3 (pause)");
    await page.getByTestId("resume").click();
  }
  // Past the callback's closing brace (line 6), a step goes through Node's timers to the next tick's first line.
  await page.getByTestId("pause").click();
  await status.filter({ hasText: "Paused at ticker.ts:3 (pause)" }).waitFor();
  for (const line of [4, 5, 6, 3]) {
    await page.getByTestId("step-over").click();
    await status.filter({ hasText: `Paused at ticker.ts:${line} (` }).waitFor();
  }
  assert.deepEqual(errors, []);
});
