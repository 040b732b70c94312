// Drives the real workbench in headless Chromium, as a person would: the Run Script lens and its
// output in the terminal, a breakpoint set by clicking the gutter, F5, the paused line, the Run
// File button, `rt` in a new integrated terminal, and the rt Secrets panel adding and deleting a
// credential. Each step saves a screenshot to `artifacts`.
import path from "node:path";
import { openBrowser } from "./code-server.mjs";

/** Runs `drive(page, shot)` in a fresh browser; a failure leaves a screenshot named `failure`. */
async function inBrowser({ profile, artifacts }, failure, drive) {
  const { context, page } = await openBrowser(profile);
  const shot = (name) => page.screenshot({ path: path.join(artifacts, `${name}.png`) });
  try {
    await drive(page, shot);
  } catch (error) {
    await shot(failure).catch(() => {});
    throw error;
  } finally {
    await context.close();
  }
}

export function driveUi({ server, workspace, profile, artifacts, log }) {
  return inBrowser({ profile, artifacts }, "99-failure", async (page, shot) => {
    await page.goto(`${server.base}/?workspace=${encodeURIComponent(workspace)}`);
    await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
    const secretsIcon = page.locator('.activitybar [aria-label^="rt Secrets"]').first();
    await secretsIcon.waitFor({ timeout: 60_000 });
    log("workbench ready, rt Secrets in the activity bar");

    const steps = {
      /** Quick Open: the file whose path (as Quick Open shows it) ends with `suffix`. */
      async open(suffix) {
        await page.keyboard.press("Control+P");
        const input = page.locator(".quick-input-widget input");
        await input.waitFor({ state: "visible" });
        await input.fill(suffix);
        const row = page
          .locator(".quick-input-list .monaco-list-row")
          .filter({ hasText: suffix.split("/").pop() })
          .first();
        await row.waitFor();
        await page.keyboard.press("Enter");
        await page.locator(".tabs-container .tab.active", { hasText: suffix.split("/").pop() }).waitFor();
      },
      /** The editor line (a .view-line element) whose text contains `text`. */
      line(text) {
        return page.locator(".editor-instance .view-lines .view-line").filter({ hasText: text, visible: true }).first();
      },
    };

    /** What F5 brought up: rt's session (the debug toolbar) or VS Code's debugger picker. */
    const expectSession = async (what) => {
      // (The wait that loses the race ends quietly: no unhandled rejection after its timeout.)
      const first = await Promise.race([
        page
          .locator(".quick-input-widget .monaco-list-row")
          .first()
          .waitFor({ timeout: 15_000 })
          .then(
            () => "picker",
            () => "none",
          ),
        page
          .locator(".debug-toolbar")
          .waitFor({ timeout: 15_000 })
          .then(
            () => "session",
            () => "none",
          ),
      ]);
      if (first !== "session") throw new Error(`${what}: expected rt's session to start without a question, got ${first}`);
    };

    // 1. Run Script lens in package.json -> the script's output in the terminal.
    await steps.open("app/package.json");
    const lens = page.locator(".contentWidgets .codelens-decoration a", { hasText: "Run Script" });
    await lens.nth(1).waitFor({ timeout: 60_000 });
    log(`package.json shows ${await lens.count()} Run Script lenses`);
    // Lenses in file order: prehello, hello, ...: the second is hello's.
    await lens.nth(1).click();
    await page.locator(".terminal-wrapper .xterm-rows, .terminal-wrapper .xterm-screen").first().waitFor({ timeout: 30_000 });
    await page.locator(".xterm-rows", { hasText: "hello from the hello script" }).first().waitFor({ timeout: 30_000 });
    log("the terminal shows the script's output");
    await page.waitForTimeout(500);
    await shot("01-run-script-lens");

    // 2. A breakpoint set by clicking the gutter, F5 (no launch.json), the paused line.
    await steps.open("app/debug-me.ts");
    const target = steps.line("const dy");
    await target.waitFor();
    // The editor re-renders its lines while the TypeScript service starts: measure a settled line.
    let box = null;
    while (!box) box = await target.boundingBox();
    const margin = await page.locator(".editor-instance .margin").filter({ visible: true }).first().boundingBox();
    await page.mouse.click(margin.x + 8, box.y + box.height / 2);
    await page.locator(".editor-instance .codicon-debug-breakpoint").first().waitFor({ timeout: 10_000 });
    log("breakpoint glyph shown after clicking the gutter");
    await page.keyboard.press("F5");
    // VS Code's JavaScript debugger claims TypeScript too, so VS Code's own F5 would ask which
    // debugger to use; in a folder that uses rt (app's scripts run rt) rt's F5 starts at once.
    await expectSession("F5 on debug-me.ts");
    log("F5 started rt's debugger without asking which debugger");
    await page.locator(".debug-toolbar").waitFor({ timeout: 30_000 });
    const paused = page.locator(".editor-instance .debug-top-stack-frame-line");
    await paused.first().waitFor({ timeout: 30_000 });
    // Variables opens on Local, as with VS Code's JavaScript debugger, also in this first session
    // of the window (VS Code creates the Variables view after it focused the frame).
    await page.locator('.debug-variables .monaco-list-row[aria-expanded="true"]', { hasText: "Local" }).first().waitFor({ timeout: 10_000 });
    log("the Variables view shows Local expanded");
    // (The stop's refresh redraws the highlight: measure a settled one.)
    let pausedBox = null;
    while (!pausedBox) pausedBox = await paused.first().boundingBox();
    if (Math.abs(pausedBox.y - box.y) > 2) throw new Error(`the highlighted line is at y=${pausedBox.y}, the breakpoint's line at y=${box.y}`);
    log("paused: the breakpoint's line is highlighted");
    await page.waitForTimeout(800);
    await shot("02-breakpoint-paused");
    await page.keyboard.press("F5");
    await page.locator(".debug-toolbar").waitFor({ state: "hidden", timeout: 30_000 });
    log("continued to the end");

    await steps.open("app/hello.ts");
    // F5 pressed at once after switching editors, and at once after ending a session (the moments
    // a context key set by the extension could lag behind the workbench): rt's session every time.
    for (let round = 1; round <= 5; round++) {
      // Switching by the editor tabs: away (a TypeScript file, package.json), back, and F5 at once.
      await page.locator(".tabs-container .tab", { hasText: round % 2 ? "hello.ts" : "package.json" }).click();
      await page.locator(".tabs-container .tab", { hasText: "debug-me.ts" }).click();
      await page.keyboard.press("F5");
      await expectSession(`round ${round}: F5 right after switching editors`);
      await paused.first().waitFor({ timeout: 30_000 });
      await page.keyboard.press("Shift+F5");
      await page.locator(".debug-toolbar").waitFor({ state: "hidden", timeout: 30_000 });
      await page.keyboard.press("F5");
      await expectSession(`round ${round}: F5 right after ending a session`);
      await paused.first().waitFor({ timeout: 30_000 });
      await page.keyboard.press("Shift+F5");
      await page.locator(".debug-toolbar").waitFor({ state: "hidden", timeout: 30_000 });
    }
    log("10 F5 presses right after switching editors or ending a session: rt's session each time, never the picker");

    // A session that ends on a compile error shows the Debug Console, with the error in it,
    // wherever the panel was.
    if (await page.locator(".part.panel").isVisible()) await page.keyboard.press("Control+J");
    await page.locator(".part.panel").waitFor({ state: "hidden" });
    await steps.open("app/broken.ts");
    await page.keyboard.press("F5");
    await page.locator(".repl", { hasText: 'Unexpected ";"' }).first().waitFor({ timeout: 30_000 });
    log("F5 on a file with a syntax error: the Debug Console opened with the error");
    await shot("02b-compile-error-console");
    // F5 with the focus still in the Debug Console debugs the file the editor area shows.
    await page.locator(".tabs-container .tab", { hasText: "debug-me.ts" }).click();
    await page.locator(".repl .monaco-editor").first().click();
    await page.keyboard.press("F5");
    await expectSession("F5 with the focus in the Debug Console");
    await paused.first().waitFor({ timeout: 30_000 });
    await page.keyboard.press("Shift+F5");
    await page.locator(".debug-toolbar").waitFor({ state: "hidden", timeout: 30_000 });
    log("F5 in the Debug Console debugged the editor's file");

    // The editor title's Run File button runs the file in a task terminal.
    await page.locator('.editor-actions [aria-label^="Run File"]').first().click();
    await page.locator(".xterm-rows", { hasText: "distance: 5" }).first().waitFor({ timeout: 30_000 });
    log("Run File (editor title) ran the file: the terminal shows its output");
    await shot("02c-run-file-button");

    // `rt` in a new integrated terminal: the extension put the bundled runtime first on PATH.
    await page.keyboard.press("Control+Shift+Backquote");
    // In a multi-root workspace VS Code first asks which folder the terminal starts in.
    const folderPicker = page.locator(".quick-input-widget .monaco-list-row", { hasText: "app" }).first();
    if (
      await folderPicker.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    )
      await page.keyboard.press("Enter");
    await page.locator(".terminal-wrapper.active .xterm-rows").first().waitFor({ timeout: 20_000 });
    await page.waitForTimeout(1500);
    await page.keyboard.type("command -v rt && rt -p '`rt ${rt.version} on ${process.version}`'");
    await page.keyboard.press("Enter");
    // The launcher in the extension's global storage, not an rt the machine has elsewhere on PATH.
    await page
      .locator(".terminal-wrapper.active .xterm-rows", { hasText: /globalStorage\/rt\.rt-vscode\/bin\/rt\s*rt 0\.1\.0 on v\d+/ })
      .first()
      .waitFor({ timeout: 30_000 });
    log("a new integrated terminal runs the bundled rt");
    await shot("02d-terminal-rt");

    // 3. The rt Secrets panel: add a credential (three input boxes, the value masked), then delete it.
    await secretsIcon.click();
    const addButton = page.getByRole("button", { name: "Add Secret" }).first();
    await addButton.waitFor();
    await addButton.click();
    const input = page.locator(".quick-input-widget input");
    for (const answer of ["ui-service", "alice-ui", "hunter2"]) {
      await input.waitFor({ state: "visible" });
      if (answer === "hunter2" && (await input.getAttribute("type")) !== "password") throw new Error("the value input box is not masked");
      await input.fill(answer);
      await page.keyboard.press("Enter");
      await page.waitForTimeout(300);
    }
    const account = page.locator(".monaco-list-row", { hasText: "alice-ui" });
    await account.waitFor({ timeout: 20_000 });
    log("the panel lists the new account");
    await page.waitForTimeout(500);
    await shot("03-secrets-added");
    await account.hover();
    await account.getByRole("button", { name: "Delete Secret" }).click();
    const dialog = page.locator(".monaco-dialog-box");
    await dialog.waitFor();
    await shot("04-secrets-delete-confirmation");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await account.waitFor({ state: "detached", timeout: 20_000 });
    log("after confirming, the account is gone");
    await shot("05-secrets-deleted");
  });
}

/**
 * A broken setup: rt.runtimePath names no file and there is no D-Bus session bus. The user sees
 * a notification offering "Configure path", a warning in the status bar, and the rt Secrets
 * panel says why the store cannot be used and what to do.
 */
export function driveBrokenSetup({ server, workspace, profile, artifacts, log }) {
  return inBrowser({ profile, artifacts }, "98-broken-setup-failure", async (page, shot) => {
    await page.goto(`${server.base}/?workspace=${encodeURIComponent(workspace)}`);
    await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
    const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "rt: cannot use the rt set in rt.runtimePath" });
    await toast.waitFor({ timeout: 60_000 });
    const text = await toast.innerText();
    if (!text.includes("/nonexistent/rt does not exist")) throw new Error(`the notification does not say what is wrong: ${text}`);
    log(`notification: ${text.split("\n").find((line) => line.startsWith("rt:"))}`);
    await page
      .locator(".statusbar-item", { hasText: "rt" })
      .filter({ has: page.locator(".codicon-warning") })
      .first()
      .waitFor();
    log("the status bar shows rt with a warning");
    await page.locator('.activitybar [aria-label^="rt Secrets"]').first().click();
    const message = page.locator(".pane-body .message", { hasText: "no D-Bus session bus" });
    await message.waitFor({ timeout: 30_000 });
    log(`secrets panel: ${(await message.innerText()).slice(0, 100)}...`);
    await page.waitForTimeout(300);
    await shot("06-broken-setup");
    await toast.getByRole("button", { name: "Configure path" }).click();
    await page.locator(".settings-editor").waitFor({ timeout: 20_000 });
    await page.locator(".settings-editor .setting-item-label", { hasText: "Runtime Path" }).first().waitFor();
    log("Configure path opened the setting");
    await shot("07-configure-path");
  });
}

/** rt.runtimePath names an rt older than the extension needs: the notification says so. */
export function driveOldRuntime({ server, workspace, profile, artifacts, log }) {
  return inBrowser({ profile, artifacts }, "97-old-runtime-failure", async (page, shot) => {
    await page.goto(`${server.base}/?workspace=${encodeURIComponent(workspace)}`);
    const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "is too old" });
    await toast.waitFor({ timeout: 60_000 });
    const text = (await toast.innerText()).split("\n").find((line) => line.startsWith("rt:"));
    if (!text?.includes("rt 0.0.9 is too old: this extension needs rt 0.1.0 or newer")) throw new Error(`the notification does not say what is wrong: ${text}`);
    await toast.getByRole("button", { name: "Configure path" }).waitFor();
    log(`notification: ${text}`);
    await shot("08-old-runtime");
  });
}
