// rt.secrets and `rt secrets` against a real Secret Service: a private D-Bus session bus with
// gnome-keyring (test/support/with-keyring.sh), cross-checked with secret-tool. Then the store
// failing in each way a user meets: no bus, no daemon, a locked keyring, a frozen daemon.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { inKeyring, keyringUnavailable, startKeyring } from "./keyring.mjs";
import { FIXTURES, REPO, RT_BIN, rt, skipUnlessCI, tempDir } from "./rt.mjs";

const cwd = path.join(FIXTURES, "secrets");
const unavailable = keyringUnavailable();
const STORE_MESSAGES = {
  ERR_SECRETS_NO_BUS:
    "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset or its socket is gone): run inside a desktop session, or start a bus with `dbus-run-session -- <command>`",
  ERR_SECRETS_NO_SERVICE: "no Secret Service running on the session bus: start gnome-keyring-daemon or KeePassXC's secret service",
  ERR_SECRETS_LOCKED:
    "the keyring is locked and could not be unlocked: unlock your login keyring (log in to the desktop, or run `gnome-keyring-daemon --unlock`)",
  ERR_SECRETS_TIMEOUT: "the Secret Service did not answer in time: the keyring daemon (org.freedesktop.secrets) is not responding; restart it",
};
/**
 * The longest the program's event loop may stall while 200 operations run. It is ~5 ms here; a
 * store called on the program's own thread would stall it for all 200 (~500 ms against
 * gnome-keyring, seconds against a hung daemon). The margin is for the scheduler: on a loaded
 * 2-core machine a process waits 50-100 ms for a core now and then, which is not rt's doing.
 */
const MAX_STALL_MS = 200;

/** Runs a test only where the keyring programs exist; elsewhere a printed skip (a failure under CI). */
function keyringTest(name, body) {
  test(name, (t) => (unavailable ? skipUnlessCI(t, unavailable) : body(t)));
}

/** A user mistake in `rt secrets`: one line, the exit code, no stack trace from inside rt. */
function mistake(result, code, line) {
  assert.equal(result.stderr, `${line}\n`);
  assert.equal(result.code, code);
  assert.equal(result.stdout, "");
}

/** The refusal of a service or name that is not UTF-8 text: the API's and the command line's. */
const notUtf8 = (label) =>
  `${label} is not valid UTF-8 text (it has bytes that are not UTF-8, or a lone surrogate), so the credential store would not keep it exactly: give the ${label} as UTF-8 text`;

/** Every file under dir, recursively. */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe("rt.secrets with a running keyring", () => {
  let keyring;
  before(async () => {
    if (!unavailable) keyring = await startKeyring();
  });
  after(() => keyring?.stop());
  const inStore = (args, options = {}) => rt(args, { cwd, ...options, env: { ...keyring.env, ...options.env } });
  const secretTool = (args, input) => inKeyring(keyring, "secret-tool", args, input);
  const json = (args) => {
    const result = inStore(args);
    assert.equal(result.stderr, "", `rt ${args.join(" ")}`);
    assert.equal(result.code, 0);
    return JSON.parse(result.stdout);
  };

  keyringTest("every call form: options or (service, name); set replaces; a missing pair is null / false", () => {
    assert.deepEqual(json(["forms.ts"]), [
      ["one object: import, global, default export", true],
      ["get missing (options)", null],
      ["get missing (service, name)", null],
      ["delete missing (options)", false],
      ["delete missing (service, name)", false],
      ["set (options, value)", "undefined"],
      ["get (options)", "v1"],
      ["set (service, name, value) replaces", "undefined"],
      ["get (service, name)", "v2"],
      ["set ({ service, name, value }) replaces", "undefined"],
      ["get, detached", "v3"],
      ["set, detached", "undefined"],
      ["delete (options)", true],
      ["get after delete", null],
      ["delete (service, name), detached", true],
      ["get after second delete", null],
    ]);
  });

  keyringTest("replacing a value keeps one item in the keyring, with the attribute schema the README documents", () => {
    const result = inStore(["-e", 'for (const v of ["a", "b", "c"]) await rt.secrets.set("replace", "dana", v)']);
    assert.deepEqual([result.code, result.stderr], [0, ""]);
    const search = secretTool(["search", "--all", "service", "replace"]);
    assert.equal(search.stdout.match(/^\[\//gm)?.length, 1, search.stdout);
    assert.match(search.stdout, /^label = keyring:dana@replace$/m);
    assert.match(search.stdout, /^secret = c$/m);
    // secret-tool prints the attributes on stderr.
    assert.equal(search.stderr, "attribute.service = replace\nattribute.username = dana\n");
  });

  keyringTest("100 concurrent operations on distinct pairs and on one pair: consistent, in call order", (t) => {
    const out = json(["concurrent.ts"]);
    t.diagnostic(`100 distinct pairs at once: set ${out.distinct.ms.set} ms, get ${out.distinct.ms.get} ms, delete ${out.distinct.ms.delete} ms`);
    assert.deepEqual({ ...out.distinct, ms: undefined }, { allRead: true, allDeleted: true, goneAfterDelete: true, ms: undefined });
    assert.equal(out.mixed, true);
    assert.equal(out.samePair.inCallOrder, true);
    assert.equal(out.samePair.final, out.samePair.expectedFinal);
    for (const service of ["concurrent", "mixed", "same"]) {
      assert.equal(secretTool(["search", "--all", "service", service]).stdout, "", `nothing left of ${service}`);
    }
  });

  keyringTest("Unicode, empty, multi-line, NUL, BOM and 64 KiB values round-trip exactly, also as secret-tool sees them", () => {
    const { mismatches, values } = json(["values.ts"]);
    assert.deepEqual(mismatches, []);
    assert.equal(values["64 KiB"].length, 64 * 1024);
    for (const [name, value] of Object.entries(values)) {
      assert.equal(secretTool(["lookup", "service", "values", "username", name]).stdout, value, name);
    }
  });

  keyringTest("a value stored by secret-tool is read by rt, exactly", () => {
    const value = "from secret-tool ✓\nsecond line\n";
    assert.equal(secretTool(["store", "--label=made by secret-tool", "service", "cross", "username", "erin"], value).code, 0);
    assert.equal(inStore(["-e", 'rt.secrets.get("cross", "erin").then((v) => console.log(JSON.stringify(v)))']).stdout, `${JSON.stringify(value)}\n`);
    assert.deepEqual(inStore(["secrets", "get", "cross", "erin"]), { code: 0, signal: null, stdout: value, stderr: "" });
  });

  keyringTest("a non-UTF-8 value stored by another program is an error, not garbage", () => {
    secretTool(["store", "--label=binary", "service", "cross", "username", "binary"], Buffer.from([0xff, 0xfe, 0x00]));
    const result = inStore(["-e", 'await rt.secrets.get("cross", "binary").catch((e) => console.log(e.code, e.message))']);
    assert.equal(result.stdout, "ERR_SECRETS_NOT_TEXT the stored value is not UTF-8 text (it was stored by another program as binary data)\n");
  });

  keyringTest("the value is not in plain text in the keyring files on disk", () => {
    const value = `TOPSECRET-at-rest-${"0123456789abcdef".repeat(256)}`;
    const sizeBefore = filesUnder(keyring.dir).reduce((sum, file) => sum + statSync(file).size, 0);
    const result = inStore(["secrets", "set", "at-rest", "frank"], { input: value });
    assert.deepEqual([result.code, result.stderr], [0, ""]);
    const files = filesUnder(keyring.dir);
    const sizeAfter = files.reduce((sum, file) => sum + statSync(file).size, 0);
    assert.ok(sizeAfter - sizeBefore >= value.length, `the value is in the files (${sizeBefore} -> ${sizeAfter} bytes), encrypted`);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const needle of ["TOPSECRET", value.slice(100, 132)]) {
        for (const encoding of ["utf8", "utf16le"]) assert.equal(bytes.indexOf(Buffer.from(needle, encoding)), -1, `${needle} (${encoding}) in ${file}`);
      }
    }
  });

  keyringTest("argument mistakes reject with a TypeError naming the problem, before the store is touched, never quoting the value", () => {
    const out = json(["arguments.ts"]);
    assert.deepEqual(out, [
      ["get()", "TypeError", "ERR_INVALID_ARG_TYPE", "secrets.get needs an options object { service, name } or the arguments (service, name)"],
      ["get({ service })", "TypeError", "ERR_INVALID_ARG_TYPE", "name must be a string, got undefined"],
      ["get(service)", "TypeError", "ERR_INVALID_ARG_TYPE", "name must be a string, got undefined"],
      ["get({ service: 1, name })", "TypeError", "ERR_INVALID_ARG_TYPE", "service must be a string, got number"],
      ["get(service, null)", "TypeError", "ERR_INVALID_ARG_TYPE", "name must be a string, got null"],
      ["get('', name)", "TypeError", "ERR_INVALID_ARG_VALUE", "service must not be empty"],
      ["get(service, '')", "TypeError", "ERR_INVALID_ARG_VALUE", "name must not be empty"],
      ["get(NUL in service)", "TypeError", "ERR_INVALID_ARG_VALUE", "service must not contain NUL characters (the credential store would cut it there)"],
      ["delete(NUL in name)", "TypeError", "ERR_INVALID_ARG_VALUE", "name must not contain NUL characters (the credential store would cut it there)"],
      ["get(256-char service)", "TypeError", "ERR_INVALID_ARG_VALUE", "service is 256 characters long; the limit is 255"],
      ["set(256-char name)", "TypeError", "ERR_INVALID_ARG_VALUE", "name is 256 characters long; the limit is 255"],
      ["get(lone surrogate)", "TypeError", "ERR_INVALID_ARG_VALUE", notUtf8("name")],
      [
        "set(options) without value",
        "TypeError",
        "ERR_INVALID_ARG_TYPE",
        "value must be a string, got undefined; to remove a secret, call secrets.delete({ service, name })",
      ],
      [
        "set(options, undefined)",
        "TypeError",
        "ERR_INVALID_ARG_TYPE",
        "value must be a string, got undefined; to remove a secret, call secrets.delete({ service, name })",
      ],
      [
        "set(service, name, null)",
        "TypeError",
        "ERR_INVALID_ARG_TYPE",
        "value must be a string, got null; to remove a secret, call secrets.delete({ service, name })",
      ],
      ["set(service, name, number)", "TypeError", "ERR_INVALID_ARG_TYPE", "value must be a string, got number"],
      ["set(service, name, Buffer)", "TypeError", "ERR_INVALID_ARG_TYPE", "value must be a string, got object"],
      ["set value twice", "TypeError", "ERR_INVALID_ARG_VALUE", "the value is given twice: in the options object and as the second argument"],
      ["set(value over the limit)", "TypeError", "ERR_INVALID_ARG_VALUE", "value is 1080000 bytes as UTF-8; the limit on linux is 1048576 bytes"],
      [
        "set(value with lone surrogate)",
        "TypeError",
        "ERR_INVALID_ARG_VALUE",
        "value is not well-formed Unicode (it has a lone surrogate), so it could not be stored exactly",
      ],
    ]);
    // The NUL-cut name really would have been another pair: nothing was stored under "a".
    assert.equal(secretTool(["search", "--all", "service", "a"]).stdout, "");
  });

  keyringTest('require("rt-runtime/secrets") works in plain Node, without rt', () => {
    const code = `const { secrets } = require("rt-runtime/secrets");
      (async () => { await secrets.set("plain-node", "gina", "from node"); console.log(await secrets.get({ service: "plain-node", name: "gina" }), await secrets.delete("plain-node", "gina")); })();`;
    const result = spawnSync(process.execPath, ["-e", code], { cwd: REPO, env: { ...process.env, ...keyring.env }, encoding: "utf8", timeout: 30_000 });
    assert.deepEqual([result.status, result.stderr, result.stdout], [0, "", "from node true\n"]);
  });

  keyringTest("one connection per pair, reused: 200 calls on a pair open no new sockets", () => {
    const code = `const fs = require("node:fs");
      const sockets = () => fs.readdirSync("/proc/self/fd").filter((fd) => { try { return fs.readlinkSync("/proc/self/fd/" + fd).startsWith("socket:"); } catch { return false; } }).length;
      (async () => {
        await rt.secrets.set("reuse", "hana", "v");
        const before = sockets();
        for (let i = 0; i < 200; i++) await (i % 2 ? rt.secrets.get("reuse", "hana") : rt.secrets.set("reuse", "hana", "v" + i));
        console.log(sockets() - before);
      })();`;
    assert.deepEqual(inStore(["-e", code]), { code: 0, signal: null, stdout: "0\n", stderr: "" });
  });

  keyringTest("the event loop keeps ticking during 200 operations; no value reaches the output, even with RT_CONFIG_VERBOSE_FETCH", (t) => {
    const result = inStore(["store-down.ts", "200"], { env: { RT_CONFIG_VERBOSE_FETCH: "1" } });
    assert.equal(result.stderr, "");
    assert.doesNotMatch(result.stdout, /TOPSECRET/);
    const out = JSON.parse(result.stdout);
    t.diagnostic(`normal daemon: 200 operations at once in ${out.many.totalMs} ms; longest event-loop stall ${out.maxStallMs} ms`);
    assert.deepEqual(out.many.codes, { ok: 200 });
    assert.ok(out.maxStallMs < MAX_STALL_MS, `event loop stalled ${out.maxStallMs} ms`);
  });

  keyringTest('rt file.ts and import from "rt" load nothing of secrets; a call loads its module, never the native addon into the program\'s thread', () => {
    const loaded =
      'console.log(JSON.stringify(Object.keys(require.cache).map((f) => require("node:path").basename(f)).filter((f) => /^secrets|keyring/.test(f))))';
    assert.equal(inStore(["-e", loaded]).stdout, "[]\n");
    // Importing from "rt" reads every member of the namespace: rt.secrets itself loads nothing.
    assert.equal(
      inStore([
        "-e",
        `import { secrets } from "rt"; console.log(typeof secrets.get); ${loaded.replace(/require/g, "process.getBuiltinModule('module').createRequire(import.meta.url)")}`,
      ]).stdout,
      "function\n[]\n",
    );
    assert.equal(inStore(["-e", `rt.secrets.get("lazy", "x").then(() => ${loaded})`]).stdout, '["secrets.cjs"]\n');
  });

  describe("rt secrets", () => {
    keyringTest("set reads stdin exactly; get prints it exactly; list shows names only; delete removes", () => {
      const value = "multi\nline value ✓\n";
      assert.deepEqual(inStore(["secrets", "set", "cli", "ivan"], { input: value }), { code: 0, signal: null, stdout: "", stderr: "" });
      assert.deepEqual(inStore(["secrets", "set", "cli", "anna"], { input: "TOPSECRET-anna" }), { code: 0, signal: null, stdout: "", stderr: "" });
      assert.equal(secretTool(["lookup", "service", "cli", "username", "ivan"]).stdout, value);
      assert.deepEqual(inStore(["secrets", "get", "cli", "ivan"]), { code: 0, signal: null, stdout: value, stderr: "" });
      assert.deepEqual(inStore(["secrets", "list", "cli"]), { code: 0, signal: null, stdout: "anna\nivan\n", stderr: "" });
      assert.deepEqual(inStore(["secrets", "delete", "cli", "ivan"]), { code: 0, signal: null, stdout: "", stderr: "" });
      assert.deepEqual(inStore(["secrets", "list", "cli"]), { code: 0, signal: null, stdout: "anna\n", stderr: "" });
      assert.deepEqual(inStore(["secrets", "list", "nobody-here"]), { code: 0, signal: null, stdout: "", stderr: "" });
    });

    keyringTest("get and delete of a missing pair: one line, exit 1", () => {
      mistake(inStore(["secrets", "get", "cli", "nobody"]), 1, 'error: no secret stored for service "cli", name "nobody"');
      mistake(inStore(["secrets", "delete", "cli", "nobody"]), 1, 'error: no secret stored for service "cli", name "nobody"');
    });

    keyringTest("set refuses a value on the command line, without repeating it, and stores nothing", () => {
      mistake(
        inStore(["secrets", "set", "cli", "jack", "TOPSECRET-argv"]),
        2,
        "rt: rt secrets set takes the value from stdin or a prompt, never from the command line (other users can see it in `ps`): printf '%s' \"$VALUE\" | rt secrets set <service> <name>",
      );
      assert.equal(secretTool(["search", "--all", "service", "cli", "username", "jack"]).stdout, "");
    });

    /**
     * `command` (a shell command line) on a terminal (script(1)), typing `keys` once `prompt`
     * shows; the shell reports the exit code and whether the terminal echoes afterwards.
     * Resolves { code, screen, echo }: screen is what the terminal showed before the report.
     */
    const typeAtPrompt = async (command, prompt, keys) => {
      // `trap :` (not ignored, so the command still gets Ctrl-C) keeps the shell alive after it.
      // script(1) runs this in $SHELL: pinned to sh, which (unlike bash) does not ignore SIGQUIT by itself, hence the trap.
      const script = `trap : INT QUIT; ${command}; echo "[exit $?]"; stty -a`;
      const child = spawn("script", ["-qec", script, "/dev/null"], { cwd, env: { ...process.env, ...keyring.env, SHELL: "/bin/sh" } });
      let screen = "";
      let typed = false;
      child.stdout.setEncoding("utf8").on("data", (chunk) => {
        screen += chunk;
        if (!typed && screen.includes(prompt)) {
          typed = true;
          child.stdin.write(keys);
        }
      });
      const timer = setTimeout(() => child.kill(), 30_000);
      await new Promise((resolve) => child.on("close", resolve));
      clearTimeout(timer);
      const [shown, report = ""] = screen.replace(/\r/g, "").split(/\[exit (?=\d+\]\n)/);
      return { code: Number.parseInt(report, 10), screen: shown, echo: /(?:^|\s)echo(?:\s|;|$)/m.test(report) };
    };
    const rtSet = (name) => `'${process.execPath}' -- '${RT_BIN}' secrets set cli ${name}`;
    const hasScript = (t) => spawnSync("sh", ["-c", "command -v script"]).status === 0 || skipUnlessCI(t, "needs script(1) (Debian: bsdutils) for a terminal");

    keyringTest("on a terminal, set prompts without echoing what is typed; Enter alone stores nothing", async (t) => {
      if (!hasScript(t)) return;
      const typo = await typeAtPrompt(rtSet("kate"), "Value for cli/kate: ", "TOPSECRET-typ0\u007fo\r"); // a typo, Backspace, Enter
      assert.deepEqual(typo, { code: 0, screen: "Value for cli/kate: \n", echo: true });
      assert.equal(secretTool(["lookup", "service", "cli", "username", "kate"]).stdout, "TOPSECRET-typo");
      const enter = await typeAtPrompt(rtSet("kate"), "Value for cli/kate: ", "\r");
      assert.equal(enter.code, 1);
      assert.match(
        enter.screen,
        /^Value for cli\/kate: \nerror: nothing was typed: nothing was stored\. To store an empty value on purpose: rt secrets set --allow-empty cli kate < \/dev\/null; to remove the secret: rt secrets delete cli kate\n$/,
      );
      assert.equal(secretTool(["lookup", "service", "cli", "username", "kate"]).stdout, "TOPSECRET-typo");
    });

    keyringTest("the prompt stores what was typed, keystroke for keystroke as secret-tool stores it (the terminal's own line editing)", async (t) => {
      if (!hasScript(t)) return;
      const keystrokes = {
        "kill-line": ["wrong\u0015right\r", "right"], // Ctrl-U erases the line typed so far
        tab: ["a\tb\r", "a\tb"],
        erase: ["abc\u007f\u007fd\r", "ad"], // Backspace twice
        "word-erase": ["one two\u0017three\r", "one three"], // Ctrl-W
        "ctrl-d-mid-line": ["abc\u0004def\r", "abcdef"], // Ctrl-D hands over "abc", typing goes on
        "ctrl-d-twice": ["abc\u0004\u0004", "abc"], // the second Ctrl-D ends the input
      };
      for (const [name, [keys, stored]] of Object.entries(keystrokes)) {
        const typed = await typeAtPrompt(rtSet(`rt-${name}`), `Value for cli/rt-${name}: `, keys);
        assert.deepEqual(typed, { code: 0, screen: `Value for cli/rt-${name}: \n`, echo: true }, name);
        const peer = await typeAtPrompt(`secret-tool store --label=peer service cli username peer-${name}`, "Password: ", keys);
        assert.equal(peer.code, 0, name);
        const peerStored = secretTool(["lookup", "service", "cli", "username", `peer-${name}`]).stdout;
        assert.deepEqual([secretTool(["lookup", "service", "cli", "username", `rt-${name}`]).stdout, peerStored], [stored, stored], name);
        assert.deepEqual(inStore(["secrets", "get", "cli", `rt-${name}`]).stdout, stored, name);
      }
    });

    keyringTest("at the prompt, Ctrl-D on an empty line, Ctrl-C and Ctrl-\\ cancel: nothing stored, echo restored", async (t) => {
      if (!hasScript(t)) return;
      assert.equal(inStore(["secrets", "set", "cli", "cancel"], { input: "TOPSECRET-kept" }).code, 0);
      const eof = await typeAtPrompt(rtSet("cancel"), "Value for cli/cancel: ", "\u0004");
      assert.deepEqual(eof, {
        code: 1,
        screen: "Value for cli/cancel: \nerror: the input ended (Ctrl-D) before anything was typed: nothing was stored\n",
        echo: true,
      });
      // Even with --allow-empty: Enter is how to give an empty value, the end of the input never is.
      assert.equal((await typeAtPrompt(`${rtSet("cancel")} --allow-empty`, "Value for cli/cancel: ", "\u0004")).code, 1);
      const interrupted = await typeAtPrompt(rtSet("cancel"), "Value for cli/cancel: ", "half-typed\u0003");
      assert.deepEqual(interrupted, { code: 130, screen: "Value for cli/cancel: \nerror: cancelled: nothing was stored\n", echo: true });
      const quit = await typeAtPrompt(rtSet("cancel"), "Value for cli/cancel: ", "half-typed\u001c"); // Ctrl-\
      // (a shell may then report the job's "Quit" on its own line)
      assert.deepEqual(
        { ...quit, screen: quit.screen.split("\n").slice(0, 2) },
        { code: 131, screen: ["Value for cli/cancel: ", "error: cancelled: nothing was stored"], echo: true },
      );
      assert.equal(secretTool(["lookup", "service", "cli", "username", "cancel"]).stdout, "TOPSECRET-kept");
    });

    keyringTest("a service or name that is not UTF-8 is refused by every subcommand, so it never replaces or deletes another item", () => {
      // A name typed as the character U+FFFD is exact (its bytes are UTF-8): secret-tool stores it too.
      assert.deepEqual(inStore(["secrets", "set", "bytes", "\ufffd"], { input: "TOPSECRET-first" }), { code: 0, signal: null, stdout: "", stderr: "" });
      /** rt with raw bytes in argv: `words` are shell words, so printf can make bytes that are not UTF-8. */
      const shell = (words, input) => {
        const result = spawnSync("sh", ["-c", `exec "$0" -- "$1" ${words}`, process.execPath, RT_BIN], {
          cwd,
          env: { ...process.env, ...keyring.env },
          input,
          encoding: "utf8",
        });
        return { code: result.status, stdout: result.stdout, stderr: result.stderr };
      };
      for (const bytes of ["\\377", "\\376", "a\\303"]) {
        mistake(shell(`secrets set bytes "$(printf '${bytes}')"`, "TOPSECRET-second"), 2, `rt: ${notUtf8("name")}`);
        mistake(shell(`secrets delete bytes "$(printf '${bytes}')"`), 2, `rt: ${notUtf8("name")}`);
        mistake(shell(`secrets get bytes "$(printf '${bytes}')"`), 2, `rt: ${notUtf8("name")}`);
        mistake(shell(`secrets set "$(printf 'bytes${bytes}')" x`, "TOPSECRET-second"), 2, `rt: ${notUtf8("service")}`);
        mistake(shell(`secrets list "$(printf 'bytes${bytes}')"`), 2, `rt: ${notUtf8("service")}`);
      }
      // Typed U+FFFD next to a byte that is not UTF-8: refused, not taken for the typed one.
      mistake(shell(`secrets set "$(printf '\\357\\277\\275')" "$(printf '\\377')"`, "x"), 2, `rt: ${notUtf8("name")}`);
      assert.deepEqual(secretTool(["lookup", "service", "bytes", "username", "\ufffd"]), { code: 0, stdout: "TOPSECRET-first", stderr: "" });
      assert.deepEqual(inStore(["secrets", "list", "bytes", "--json"]).stdout, '["\ufffd"]\n');
      // The API: a lone surrogate is JavaScript's name that does not decode exactly.
      const api = inStore([
        "-e",
        `for (const call of [() => rt.secrets.set("bytes", "\\ud800", "x"), () => rt.secrets.delete("bytes", "\\udfff"), () => rt.secrets.get({ service: "\\ud800", name: "a" })])
           await call().then(() => console.log("resolved"), (e) => console.log(e.code, e.message));
         console.log(await rt.secrets.get("bytes", "\\ufffd"));`,
      ]);
      assert.deepEqual(api.stdout.split("\n"), [
        `ERR_INVALID_ARG_VALUE ${notUtf8("name")}`,
        `ERR_INVALID_ARG_VALUE ${notUtf8("name")}`,
        `ERR_INVALID_ARG_VALUE ${notUtf8("service")}`,
        "TOPSECRET-first",
        "",
      ]);
    });

    keyringTest("list prints a name with a newline or another control character, or a leading quote, as a JSON string: one line per name", () => {
      const names = ["plain", "two\nlines", "tab\there", '"quoted"', "red\u001b[31m", "del\u007f", "c1\u009b", "trailing\r"];
      const stored = inStore(["-e", `for (const name of ${JSON.stringify(names)}) await rt.secrets.set("listing", name, "x")`]);
      assert.deepEqual([stored.code, stored.stderr], [0, ""]);
      const listed = inStore(["secrets", "list", "listing"]);
      assert.deepEqual(listed, {
        code: 0,
        signal: null,
        stdout: ['"\\"quoted\\""', '"c1\\u009b"', '"del\\u007f"', "plain", '"red\\u001b[31m"', '"tab\\there"', '"trailing\\r"', '"two\\nlines"', ""].join("\n"),
        stderr: "",
      });
      // Every escaped line is JSON and gives back the name.
      const back = listed.stdout
        .trimEnd()
        .split("\n")
        .map((line) => (line.startsWith('"') ? JSON.parse(line) : line));
      assert.deepEqual(back, [...names].sort());
      assert.deepEqual(JSON.parse(inStore(["secrets", "list", "listing", "--json"]).stdout), [...names].sort());
    });

    keyringTest("set never destroys a stored secret by accident: a directory, a closed or an empty stdin store nothing", () => {
      assert.equal(inStore(["secrets", "set", "cli", "keep"], { input: "TOPSECRET-keep" }).code, 0);
      const kept = () => assert.equal(secretTool(["lookup", "service", "cli", "username", "keep"]).stdout, "TOPSECRET-keep");
      const shell = (redirect) =>
        spawnSync("sh", ["-c", `exec "$0" -- "$1" secrets set cli keep ${redirect}`, process.execPath, RT_BIN], {
          cwd,
          env: { ...process.env, ...keyring.env },
          encoding: "utf8",
        });
      const { status, stdout, stderr } = shell("< /tmp");
      mistake({ code: status, stdout, stderr }, 1, "error: cannot read the value from stdin: it is a directory; nothing was stored");
      kept();
      const empty = () =>
        "error: stdin was empty (an empty pipe, a closed stdin or /dev/null): nothing was stored. To store an empty value on purpose: rt secrets set --allow-empty cli keep < /dev/null; to remove the secret: rt secrets delete cli keep";
      const closed = shell("<&-");
      mistake({ code: closed.status, stdout: closed.stdout, stderr: closed.stderr }, 1, empty());
      kept();
      mistake(inStore(["secrets", "set", "cli", "keep"], { input: "" }), 1, empty());
      kept();
      // On purpose: --allow-empty stores "", and the hint's other way out, delete, removes it.
      assert.deepEqual(inStore(["secrets", "set", "cli", "keep", "--allow-empty"], { input: "" }), { code: 0, signal: null, stdout: "", stderr: "" });
      assert.deepEqual(secretTool(["lookup", "service", "cli", "username", "keep"]), { code: 0, stdout: "", stderr: "" });
      assert.equal(inStore(["secrets", "delete", "cli", "keep"]).code, 0);
    });

    keyringTest("flags after the subcommand are flags: list <service> --json prints the names as JSON", () => {
      assert.equal(inStore(["secrets", "set", "json-list", "b"], { input: "x" }).code, 0);
      assert.equal(inStore(["secrets", "set", "json-list", "a"], { input: "y" }).code, 0);
      assert.deepEqual(inStore(["secrets", "list", "json-list", "--json"]), { code: 0, signal: null, stdout: '["a","b"]\n', stderr: "" });
      assert.deepEqual(inStore(["secrets", "--json", "list", "nobody-here"]), { code: 0, signal: null, stdout: "[]\n", stderr: "" });
    });

    keyringTest("get to a full disk or a closed pipe: one line, exit 1", async () => {
      assert.equal(inStore(["secrets", "set", "cli", "out"], { input: "TOPSECRET-out" }).code, 0);
      const full = spawnSync("sh", ["-c", 'exec "$0" -- "$1" secrets get cli out > /dev/full', process.execPath, RT_BIN], {
        cwd,
        env: { ...process.env, ...keyring.env },
        encoding: "utf8",
      });
      mistake({ code: full.status, stdout: full.stdout, stderr: full.stderr }, 1, "error: could not write to stdout: no space left on the device");
      // The reader is gone before rt writes (rt needs far longer than this to start).
      const child = spawn(process.execPath, ["--", RT_BIN, "secrets", "get", "cli", "out"], {
        cwd,
        env: { ...process.env, ...keyring.env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout.destroy();
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
      const code = await new Promise((resolve) => child.on("close", resolve));
      assert.deepEqual({ code, stderr }, { code: 1, stderr: "error: could not write to stdout: the reader closed the pipe\n" });
    });

    keyringTest("stdin that is not UTF-8 text is refused", () => {
      mistake(
        inStore(["secrets", "set", "cli", "bin"], { input: Buffer.from([0x61, 0xff]) }),
        1,
        "error: the value on stdin is not UTF-8 text: rt secrets stores text",
      );
    });

    test("usage mistakes: one line, exit 2", () => {
      const usage = "rt secrets get <service> <name> | set <service> <name> | delete <service> <name> | list <service>";
      mistake(rt(["secrets"], { cwd }), 2, `rt: rt secrets needs a subcommand: ${usage}`);
      mistake(rt(["secrets", "show", "a"], { cwd }), 2, `rt: unknown subcommand "rt secrets show": ${usage}`);
      mistake(rt(["secrets", "get", "a"], { cwd }), 2, "rt: rt secrets get takes <service> <name>, got 1 argument");
      mistake(rt(["secrets", "list"], { cwd }), 2, "rt: rt secrets list takes <service>, got 0 arguments");
      mistake(rt(["secrets", "delete", "a", "b", "c"], { cwd }), 2, "rt: rt secrets delete takes <service> <name>, got 3 arguments");
      mistake(rt(["secrets", "get", "", "b"], { cwd }), 2, "rt: service must not be empty");
      mistake(rt(["secrets", "get", "a", "x".repeat(300)], { cwd }), 2, "rt: name is 300 characters long; the limit is 255");
      mistake(rt(["secrets", "--define", "X:1", "get", "a", "b"], { cwd }), 2, "rt: --define does not apply to rt secrets (it is a flag for running programs)");
      mistake(rt(["secrets", "get", "a", "b", "--json"], { cwd }), 2, "rt: rt secrets get does not take --json (it takes no flags)");
      mistake(rt(["secrets", "list", "a", "--allow-empty"], { cwd }), 2, "rt: rt secrets list does not take --allow-empty (its flags: --json)");
      mistake(rt(["--allow-empty", "app.ts"], { cwd }), 2, 'rt: --allow-empty is a flag of "rt secrets": rt secrets --allow-empty ...');
    });

    test("rt secrets <subcommand> --help is that subcommand's help, wherever --help stands", () => {
      const setHelp = rt(["secrets", "set", "a", "b", "--help"], { cwd });
      assert.equal(setHelp.code, 0);
      assert.match(setHelp.stdout, /^Usage: rt secrets set <service> <name> \[--allow-empty\]\n\nStore the value read from stdin/);
      assert.match(setHelp.stdout, /\n {2}--allow-empty +With `rt secrets set`: store an empty value/);
      assert.equal(rt(["secrets", "--help", "list"], { cwd }).stdout.split("\n")[0], "Usage: rt secrets list <service> [--json]");
      const overview = rt(["secrets", "--help"], { cwd });
      assert.equal(overview.code, 0);
      for (const line of [
        "rt secrets get <service> <name>",
        "rt secrets set <service> <name> [--allow-empty]",
        "rt secrets delete <service> <name>",
        "rt secrets list <service> [--json]",
      ]) {
        assert.ok(overview.stdout.includes(`  ${line} `), `${line} in:\n${overview.stdout}`);
      }
    });
  });
});

describe("rt.secrets when the store is unavailable", () => {
  /** Runs store-down.ts; checks every call rejected with `code` within `boundMs`, the loop kept ticking, no value leaked. */
  function expectRejections(t, result, { code, boundMs, manyBoundMs = boundMs }) {
    assert.equal(result.stderr, "");
    assert.doesNotMatch(result.stdout, /TOPSECRET/);
    const out = JSON.parse(result.stdout);
    const ops = ["get", "set", "delete"];
    t.diagnostic(
      `${code}: single calls ${ops.map((op) => `${op} ${Math.round(out.single[op].ms)} ms`).join(", ")}; 200 at once in ${out.many.totalMs} ms; longest event-loop stall ${out.maxStallMs} ms`,
    );
    for (const op of ops) {
      const { name, message, ms } = out.single[op];
      assert.deepEqual({ name, code: out.single[op].code, message }, { name: "Error", code, message: STORE_MESSAGES[code] }, op);
      assert.ok(ms < boundMs, `${op} took ${ms} ms`);
    }
    assert.ok(out.many.slowestMs < manyBoundMs, `slowest of 200: ${out.many.slowestMs} ms`);
    assert.ok(out.maxStallMs < MAX_STALL_MS, `event loop stalled ${out.maxStallMs} ms`);
    return out;
  }

  keyringTest("no D-Bus session bus: ERR_SECRETS_NO_BUS at once", (t) => {
    // No address and no $XDG_RUNTIME_DIR/bus to fall back to; libdbus' X11 autolaunch is off.
    const env = { DBUS_SESSION_BUS_ADDRESS: undefined, DISPLAY: undefined, XDG_RUNTIME_DIR: tempDir(t) };
    const out = expectRejections(t, rt(["store-down.ts"], { cwd, env }), { code: "ERR_SECRETS_NO_BUS", boundMs: 1000 });
    assert.deepEqual(out.many.codes, { ERR_SECRETS_NO_BUS: 200 });
    mistake(rt(["secrets", "get", "down", "alice"], { cwd, env }), 1, `error: ${STORE_MESSAGES.ERR_SECRETS_NO_BUS}`);
    mistake(rt(["secrets", "list", "down"], { cwd, env }), 1, `error: ${STORE_MESSAGES.ERR_SECRETS_NO_BUS}`);
  });

  keyringTest("a bus without a Secret Service: ERR_SECRETS_NO_SERVICE at once", async (t) => {
    const bus = await startKeyring({ busOnly: true });
    t.after(() => bus.stop());
    const out = expectRejections(t, rt(["store-down.ts"], { cwd, env: bus.env }), { code: "ERR_SECRETS_NO_SERVICE", boundMs: 1000 });
    assert.deepEqual(out.many.codes, { ERR_SECRETS_NO_SERVICE: 200 });
    mistake(rt(["secrets", "set", "down", "alice"], { cwd, env: bus.env, input: "TOPSECRET" }), 1, `error: ${STORE_MESSAGES.ERR_SECRETS_NO_SERVICE}`);
  });

  keyringTest("a locked keyring: ERR_SECRETS_LOCKED for its items and for storing; a pair it lacks is still null", async (t) => {
    const keyring = await startKeyring();
    t.after(() => keyring.stop());
    assert.equal(inKeyring(keyring, "secret-tool", ["store", "--label=x", "service", "down", "username", "alice"], "TOPSECRET-locked").code, 0);
    const lock = inKeyring(keyring, "dbus-send", [
      "--session",
      "--print-reply",
      "--dest=org.freedesktop.secrets",
      "/org/freedesktop/secrets",
      "org.freedesktop.Secret.Service.Lock",
      "array:objpath:/org/freedesktop/secrets/collection/login",
    ]);
    assert.equal(lock.code, 0, lock.stderr);
    // Each call gets its own answer (~12 ms: the daemon fails the unlock), so the 200 take ~1 s.
    const out = expectRejections(t, rt(["store-down.ts"], { cwd, env: keyring.env }), { code: "ERR_SECRETS_LOCKED", boundMs: 1000, manyBoundMs: 5000 });
    // The 200: sets of new pairs fail; gets and deletes of pairs the keyring lacks answer truthfully.
    assert.deepEqual(out.many.codes, { ERR_SECRETS_LOCKED: 67, ok: 133 });
    mistake(rt(["secrets", "get", "down", "alice"], { cwd, env: keyring.env }), 1, `error: ${STORE_MESSAGES.ERR_SECRETS_LOCKED}`);
  });

  keyringTest("a frozen daemon (SIGSTOP): ERR_SECRETS_TIMEOUT in about 2 s for all 200 calls; later calls work once it runs again", async (t) => {
    const keyring = await startKeyring();
    t.after(() => keyring.stop());
    process.kill(keyring.daemonPid, "SIGSTOP");
    try {
      expectRejections(t, rt(["store-down.ts"], { cwd, env: keyring.env }), { code: "ERR_SECRETS_TIMEOUT", boundMs: 4000 });
      // Listing has no timeout of its own: its process is killed at the 10 s deadline.
      const start = performance.now();
      mistake(rt(["secrets", "list", "down"], { cwd, env: keyring.env }), 1, `error: ${STORE_MESSAGES.ERR_SECRETS_TIMEOUT}`);
      assert.ok(performance.now() - start < 15_000);
    } finally {
      process.kill(keyring.daemonPid, "SIGCONT");
    }
    mistake(rt(["secrets", "get", "down", "alice"], { cwd, env: keyring.env }), 1, 'error: no secret stored for service "down", name "alice"');
  });
});
