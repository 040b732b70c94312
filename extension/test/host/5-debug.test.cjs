// The debugger: a breakpoint added through the API in a TypeScript file, a session started the
// way Debug File and F5 (no launch.json) start one, the top stack frame at the breakpoint's line,
// then continue to the program's end.
const assert = require("node:assert/strict");
const { mkdirSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const vscode = require("vscode");
const { eventually, folder, followSession, metric, path, pressContinue } = require("./support.cjs");

async function debugToBreakpoint(start, metricName) {
  const file = path.join(folder("app").uri.fsPath, "debug-me.ts");
  const uri = vscode.Uri.file(file);
  const line = readFileSync(file, "utf8")
    .split("\n")
    .findIndex((text) => text.includes("const dy"));
  const breakpoint = new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(line, 0)));
  vscode.debug.addBreakpoints([breakpoint]);
  await vscode.window.showTextDocument(uri);
  const follow = followSession();
  try {
    const t0 = performance.now();
    assert.equal(await start(uri), true, "the session started");
    const session = await follow.started;
    assert.equal(session.type, "rt");
    await follow.until(() => follow.seen.stopped.length > 0, "the breakpoint to be hit");
    metric(metricName, Math.round(follow.seen.stopped[0].at - t0));
    assert.equal(follow.seen.stopped[0].reason, "breakpoint");
    const { stackFrames } = await session.customRequest("stackTrace", { threadId: follow.seen.stopped[0].threadId, startFrame: 0, levels: 5 });
    assert.equal(stackFrames[0].name, "distance");
    // Over code-server's remote connection the path comes back as a vscode-remote: URI.
    const framePath = stackFrames[0].source.path;
    assert.equal(framePath.includes("://") ? vscode.Uri.parse(framePath).path : framePath, file);
    assert.equal(stackFrames[0].line, line + 1, "stopped on the breakpoint's line (1-based in DAP)");
    // The Continue button's command (what a user presses), for the focused session and thread.
    await pressContinue();
    await follow.terminated;
    assert.match(follow.seen.output, /distance: 5/);
    assert.equal(follow.seen.exitCode, 0);
  } finally {
    follow.dispose();
    vscode.debug.removeBreakpoints([breakpoint]);
  }
}

/**
 * Every rt session's stops (the main session's and its child sessions'), with the session they
 * came from, and how far each session got in ending (for a wait that times out to say).
 */
function followStops() {
  const stops = [];
  let output = "";
  const ends = new Map();
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory("rt", {
    createDebugAdapterTracker: (session) => {
      const end = { name: session.name, events: [], ended: false, started: Date.now() };
      ends.set(session.id, end);
      const note = (what) => end.events.push(`${what} at ${((Date.now() - end.started) / 1000).toFixed(1)} s`);
      end.note = note;
      return {
        onWillReceiveMessage(message) {
          if (message.type === "request" && message.command === "disconnect") note("disconnect asked");
        },
        onDidSendMessage(message) {
          if (message.type === "event" && message.event === "stopped") stops.push({ session, body: message.body });
          if (message.type === "event" && message.event === "output") output += message.body.output;
          if (message.type === "event" && (message.event === "exited" || message.event === "terminated")) note(message.event);
          if (message.type === "response" && message.command === "disconnect") note(`disconnect answered${message.success ? "" : ` (${message.message})`}`);
        },
        onWillStopSession: () => note("stop requested"),
        onError: (error) => note(`error: ${error.message}`),
        onExit: (code, signal) => note(`adapter exit ${code ?? signal}`),
      };
    },
  });
  // VS Code's word that a session ended. (Not vscode.debug.activeDebugSession: VS Code can leave
  // it on a session after that session's end, seen here with both sessions ended for 20 s.)
  const terminated = vscode.debug.onDidTerminateDebugSession((session) => {
    const end = ends.get(session.id);
    if (!end) return;
    end.ended = true;
    end.note("ended in VS Code");
  });
  const sessions = () =>
    [...ends.values()].map(({ name, events }) => `${name}: ${events.join(", ") || "no end yet"}`).join("; ") +
    `; active: ${vscode.debug.activeDebugSession?.name ?? "none"}`;
  return {
    stops,
    output: () => output,
    /** Whether `count` sessions started (any number if not given) and every one of them ended. */
    ended: (count) => (count === undefined ? ends.size > 0 : ends.size === count) && [...ends.values()].every((end) => end.ended),
    sessions,
    dispose: () => {
      tracker.dispose();
      terminated.dispose();
    },
  };
}

/** A breakpoint on the line of `file` that contains `text`; returns its 1-based line. */
function breakpointAt(file, text) {
  const uri = vscode.Uri.file(file);
  const line = readFileSync(file, "utf8")
    .split("\n")
    .findIndex((candidate) => candidate.includes(text));
  const breakpoint = new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(line, 0)));
  vscode.debug.addBreakpoints([breakpoint]);
  return { breakpoint, line: line + 1 };
}

suite("debugger", () => {
  test("a breakpoint in a worker thread's file and one in a forked child's are hit: the worker as a thread, the child as a child session", async () => {
    const dir = folder("app").uri.fsPath;
    const inWorker = breakpointAt(path.join(dir, "threads-worker.ts"), "const reply");
    const inChild = breakpointAt(path.join(dir, "threads-child.ts"), "const greeting");
    const follow = followStops();
    const topFrame = async ({ session, body }) => {
      const { stackFrames } = await session.customRequest("stackTrace", { threadId: body.threadId, startFrame: 0, levels: 1 });
      const framePath = stackFrames[0].source.path;
      return [path.basename(framePath.includes("://") ? vscode.Uri.parse(framePath).path : framePath), stackFrames[0].line];
    };
    try {
      const main = vscode.Uri.file(path.join(dir, "threads.ts"));
      await vscode.window.showTextDocument(main);
      assert.equal(await vscode.commands.executeCommand("rt.debugFile", main), true);
      await eventually(() => follow.stops.length >= 1, "the worker's breakpoint", 40_000);
      const worker = follow.stops[0];
      assert.notEqual(worker.body.threadId, 1, "the worker is a thread of its own");
      assert.deepEqual(await topFrame(worker), ["threads-worker.ts", inWorker.line]);
      await worker.session.customRequest("continue", { threadId: worker.body.threadId });
      await eventually(() => follow.stops.length >= 2, "the child's breakpoint", 40_000);
      const child = follow.stops[1];
      assert.notEqual(child.session, worker.session);
      assert.equal(child.session.parentSession, worker.session, "the child's session is a child of the program's");
      assert.deepEqual(await topFrame(child), ["threads-child.ts", inChild.line]);
      await child.session.customRequest("continue", { threadId: child.body.threadId });
      await eventually(() => follow.output().includes("threads done"), "the program's end", 20_000);
      // The sessions (the program's and its child's) end with the program: the next test's
      // session starts on an idle debugger.
      await eventually(() => follow.ended(2), "every session of the program to end", 20_000).catch((error) => {
        throw new Error(`${error.message} (${follow.sessions()})`);
      });
    } finally {
      follow.dispose();
      vscode.debug.removeBreakpoints([inWorker.breakpoint, inChild.breakpoint]);
    }
    // Two sessions, three processes: each wait above has a bound of its own, so a failure names
    // its step, and together they fit in the test's time (under mocha's 60 s the test's own
    // timeout fired first and named none).
  }).timeout(130_000);

  test("Debug File stops at a breakpoint in a .ts file, shows the top stack frame, continues to the end", async () => {
    await debugToBreakpoint((uri) => vscode.commands.executeCommand("rt.debugFile", uri), "debugFileToBreakpointMs");
  });

  test("F5 with no launch.json (an empty configuration) debugs the active file", async () => {
    await debugToBreakpoint(() => vscode.debug.startDebugging(folder("app"), { type: "rt", name: "", request: "" }), "f5ToBreakpointMs");
  });

  test("Debug Script (the lens's command) debugs the rt process `rt run debug-me` starts", async () => {
    await debugToBreakpoint(
      () => vscode.commands.executeCommand("rt.debugScript", { packageDir: folder("app").uri.fsPath, script: "debug-me" }),
      "debugScriptToBreakpointMs",
    );
  });

  test("Debug File saves the edited files first, as debug.saveBeforeStart says (and leaves them when it says none)", async () => {
    const dir = folder("app").uri.fsPath;
    const dependency = vscode.Uri.file(path.join(dir, "saves-value.ts"));
    const entry = vscode.Uri.file(path.join(dir, "saves.ts"));
    const debugEntry = async () => {
      const follow = followSession();
      try {
        assert.equal(await vscode.commands.executeCommand("rt.debugFile", entry), true, "the session started");
        await follow.started;
        await follow.terminated;
        return follow.seen.output;
      } finally {
        follow.dispose();
      }
    };
    /** Edits saves-value.ts in its editor (left unsaved), then goes back to saves.ts. */
    const edit = async (text) => {
      const editor = await vscode.window.showTextDocument(dependency);
      const whole = new vscode.Range(0, 0, editor.document.lineCount, 0);
      await editor.edit((builder) => builder.replace(whole, `export const value: string = "${text}";\n`));
      await eventually(() => editor.document.isDirty, "the edited file to be dirty");
      await vscode.window.showTextDocument(entry);
      return editor.document;
    };
    const setting = async (section, name, value) => {
      await vscode.workspace.getConfiguration(section).update(name, value, vscode.ConfigurationTarget.Workspace);
      await eventually(() => vscode.workspace.getConfiguration(section).inspect(name).workspaceValue === value, `${section}.${name} ${value}`);
    };
    // In a browser VS Code saves edits after a second by default (files.autoSave): off, as on the desktop.
    await setting("files", "autoSave", "off");
    try {
      const edited = await edit("edited");
      assert.match(await debugEntry(), /value: edited/, "the program ran the edited file");
      assert.match(readFileSync(dependency.fsPath, "utf8"), /"edited"/, "the edited file was saved");
      await eventually(() => !edited.isDirty, "the editor to show the file saved");

      await setting("debug", "saveBeforeStart", "none");
      const unsaved = await edit("not saved");
      assert.match(await debugEntry(), /value: edited/, "with saveBeforeStart none the program reads the file as on disk");
      assert.equal(unsaved.isDirty, true, "with saveBeforeStart none the edit stays unsaved");
    } finally {
      await vscode.window.showTextDocument(dependency);
      await vscode.commands.executeCommand("workbench.action.files.revert");
      await setting("debug", "saveBeforeStart", undefined);
      await setting("files", "autoSave", undefined);
    }
  });

  test("Debug Script for a folder without package.json starts nothing", async () => {
    const started = await vscode.commands.executeCommand("rt.debugScript", { packageDir: folder("empty").uri.fsPath, script: "nothing" });
    assert.equal(started, false);
  });

  test("F5 in a library file (src/lib/math.ts) starts the package's entry, says so, and stops in the library", async () => {
    const dir = folder("service").uri.fsPath;
    const library = path.join(dir, "src", "lib", "math.ts");
    const inLibrary = breakpointAt(library, "return sum");
    await vscode.window.showTextDocument(vscode.Uri.file(library));
    // rt.f5 is what the F5 key runs in a folder that uses rt; an empty configuration is F5 with rt picked.
    const starts = [() => vscode.commands.executeCommand("rt.f5"), () => vscode.debug.startDebugging(folder("service"), { type: "rt", name: "", request: "" })];
    try {
      for (const start of starts) {
        const follow = followSession();
        try {
          assert.equal(await start(), true, "the session started");
          const session = await follow.started;
          await follow.until(() => follow.seen.stopped.length > 0, "the breakpoint in math.ts");
          const { stackFrames } = await session.customRequest("stackTrace", { threadId: follow.seen.stopped[0].threadId, startFrame: 0, levels: 2 });
          assert.deepEqual(
            stackFrames.map((frame) => [path.basename(frame.source.path), frame.line]),
            [
              ["math.ts", inLibrary.line],
              ["main.ts", 6],
            ],
          );
          assert.match(
            follow.seen.output,
            /^rt: src\/lib\/math\.ts is not a program \(it only declares and exports\); starting the package's entry src\/main\.ts \(package\.json main\)\n/,
          );
          await pressContinue();
          await follow.terminated;
          assert.match(follow.seen.output, /total: 7/);
        } finally {
          follow.dispose();
        }
      }
    } finally {
      vscode.debug.removeBreakpoints([inLibrary.breakpoint]);
    }
  });

  /**
   * Starts a program that runs under rt --watch, then edits src/main.ts in its editor and saves it
   * three times: after each save the restarted program stops on the breakpoint in the library.
   */
  async function watchThroughThreeSaves(start) {
    const dir = folder("service").uri.fsPath;
    const entry = vscode.Uri.file(path.join(dir, "src", "main.ts"));
    const original = readFileSync(entry.fsPath, "utf8");
    const inLibrary = breakpointAt(path.join(dir, "src", "lib", "math.ts"), "return sum");
    const follow = followStops();
    try {
      assert.equal(await start(), true, "the session started");
      for (let save = 0; save <= 3; save++) {
        if (save > 0) {
          const editor = await vscode.window.showTextDocument(entry);
          const line = editor.document
            .getText()
            .split("\n")
            .findIndex((text) => text.startsWith("const prices"));
          await editor.edit((builder) => builder.replace(editor.document.lineAt(line).range, `const prices = [3, 4, ${save}];`));
          assert.equal(await editor.document.save(), true);
        }
        await eventually(() => follow.stops.length > save, `the breakpoint after ${save} save(s); output: ${follow.output()}`, 30_000);
        const { session, body } = follow.stops[save];
        const { stackFrames } = await session.customRequest("stackTrace", { threadId: body.threadId, startFrame: 0, levels: 1 });
        assert.deepEqual([path.basename(stackFrames[0].source.path), stackFrames[0].line], ["math.ts", inLibrary.line]);
        const sum = await session.customRequest("evaluate", { expression: "sum", frameId: stackFrames[0].id, context: "watch" });
        assert.equal(sum.result, String(7 + save), "the program runs the saved text");
        await session.customRequest("continue", { threadId: body.threadId });
      }
      assert.equal((follow.output().match(/the debugger reattached/g) ?? []).length, 3);
    } finally {
      await vscode.debug.stopDebugging();
      vscode.debug.removeBreakpoints([inLibrary.breakpoint]);
      writeFileSync(entry.fsPath, original);
      // VS Code's end of every session (not activeDebugSession, which it can leave on an ended one).
      await eventually(() => follow.ended(), "the session to end", 30_000)
        .catch((error) => {
          throw new Error(`${error.message} (${follow.sessions()})`);
        })
        .finally(() => follow.dispose());
    }
  }

  test("Debug Script on a script that runs rt --watch stops on the breakpoint after each of three saves", async () => {
    await watchThroughThreeSaves(() => vscode.commands.executeCommand("rt.debugScript", { packageDir: folder("service").uri.fsPath, script: "dev" }));
  });

  test("a launch.json configuration with --watch stops on the breakpoint after each of three saves", async () => {
    const service = folder("service");
    const dir = path.join(service.uri.fsPath, ".vscode");
    const configurations = () => vscode.workspace.getConfiguration("launch", service.uri).get("configurations", []);
    mkdirSync(dir, { recursive: true });
    const configuration = {
      type: "rt",
      request: "launch",
      name: "service (watch)",
      program: "${workspaceFolder}/src/main.ts",
      runtimeArgs: ["--watch"],
      cwd: "${workspaceFolder}",
    };
    writeFileSync(path.join(dir, "launch.json"), JSON.stringify({ version: "0.2.0", configurations: [configuration] }, null, 2));
    try {
      await eventually(() => configurations().length === 1, "VS Code to read the launch.json");
      await watchThroughThreeSaves(() => vscode.debug.startDebugging(service, "service (watch)"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await eventually(() => configurations().length === 0, "the launch.json to be gone");
    }
  });
});
