// rt-runtime as a user gets it: `npm publish` to a local registry (verdaccio, proxying the npm
// registry for rt-runtime's dependencies), then in fresh projects `npm i -D rt-runtime`,
// `npm i -g rt-runtime` into a fresh prefix and `npx rt-runtime` with no install, each under the
// machine's Node 20 (older than rt needs: rt fetches a Node of its own, once, into its cache),
// Node 22.15 (the oldest rt runs on) and Node 24. Real npm, real processes, real tsc.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { buildPlatforms, findGo, platformPackages as builtPlatforms } from "../runtime/native/build.mjs";
import { startRegistry } from "./support/registry.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const ARTIFACTS = path.join(REPO, "test", ".artifacts", "package-install");
const NPM_REGISTRY = "https://registry.npmjs.org/";
const TSC = path.join(REPO, "node_modules", ".bin", "tsc");

/** The directory of a Node binary of `version` from the npm registry (node-<os>-<cpu>), cached across runs. */
function nodeFromRegistry(version) {
  const name = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
  const prefix = path.join(ARTIFACTS, `node-${version}`);
  const bin = path.join(prefix, "node_modules", name, "bin");
  if (!existsSync(path.join(bin, "node"))) {
    mkdirSync(prefix, { recursive: true });
    execFileSync("npm", ["install", "--prefix", prefix, "--no-save", "--no-package-lock", "--registry", NPM_REGISTRY, `${name}@${version}`], { stdio: "pipe" });
  }
  return bin;
}

/**
 * The machine's Node (the first `node` on PATH outside this repository, whose npm scripts put Node
 * 24 first) when it is older than rt needs, as on these machines (20) and Debian 12's (18); else
 * Node 20 from the registry, so that the old-Node cases always run.
 */
function oldNode() {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const file = path.join(dir, "node");
    if (!dir || path.resolve(dir).startsWith(REPO) || !existsSync(file)) continue;
    const [major, minor] = execFileSync(file, ["-p", "process.versions.node"], { encoding: "utf8" }).split(".").map(Number);
    if (major < 22 || (major === 22 && minor < 15)) return { label: "the machine's Node", bin: () => dir };
    break;
  }
  return { label: "Node 20 (the machine's is new enough)", bin: () => nodeFromRegistry("20.20.0") };
}

/**
 * The rt-runtime-<os>-<cpu> packages (the compiled front), built from this tree's sources and
 * published alongside, as a release would; none without Go (then rt starts through Node, the
 * fallback platforms without a package get).
 */
function platformPackages() {
  if (!findGo()) return [];
  buildPlatforms();
  return builtPlatforms().map(({ dir }) => dir);
}

const HELLO =
  'import { version } from "rt";\nconst who: string = process.argv[2] ?? "world";\nconsole.log(`hello ${who} from rt ${version === rt.version}`);\n';
const TYPED =
  'import { secrets, version } from "rt";\nexport const v: string = version;\nexport const s: Promise<string | null> = secrets.get("svc", "name");\nexport const g: string = rt.version;\n';
const TEST_FILE =
  'import { test } from "node:test";\nimport assert from "node:assert/strict";\nconst n: number = 2;\ntest("adds", () => assert.equal(n + n, 4));\n';
const SCRIPTS = { hello: "rt hello.ts script" };

let registry;
let work;
/** The environment of every command: the Node under test first on PATH, the local registry, one rt cache for the run. */
let baseEnv;

before(async () => {
  registry = await startRegistry({ uplink: NPM_REGISTRY });
  work = mkdtempSync(path.join(tmpdir(), "rt-package-install-"));
  const npmrc = path.join(work, "npmrc");
  writeFileSync(npmrc, `registry=${registry.url}/\n${registry.url.replace(/^https?:/, "")}/:_authToken=${registry.token}\n`);
  baseEnv = {
    ...process.env,
    npm_config_userconfig: npmrc,
    npm_config_registry: `${registry.url}/`,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    // The run's installs share packuments fetched once, in an npm cache of the run's own: a port
    // can come back in a later run, and npm's shared cache would then hold that run's packuments.
    npm_config_prefer_offline: "true",
    npm_config_cache: path.join(work, "npm-cache"),
    XDG_CACHE_HOME: path.join(work, "cache"),
    NO_COLOR: "1",
  };
  for (const key of Object.keys(baseEnv)) if (/^npm_(package|lifecycle)_|^(INIT_CWD|NODE_OPTIONS|NODE_TEST_CONTEXT)$/.test(key)) delete baseEnv[key];
  for (const dir of [path.join(REPO, "runtime"), ...platformPackages()]) {
    execFileSync("npm", ["publish", "--ignore-scripts", "--registry", `${registry.url}/`], { cwd: dir, env: baseEnv, stdio: "pipe" });
  }
});
after(() => {
  registry?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const NODES = [
  { ...oldNode(), old: true },
  { label: "Node 22.15.0", bin: () => nodeFromRegistry("22.15.0"), old: false },
  { label: "Node 24", bin: () => path.dirname(process.execPath), old: false },
];

// The three Nodes at once (installs wait on the network more than on the CPU); each one's cases in turn.
describe("rt-runtime installed from a registry", { concurrency: true }, () => {
  for (const node of NODES) {
    describe(`rt-runtime under ${node.label}`, () => {
      let env;
      let version;
      const run = (command, args, cwd, extra = {}) => {
        const result = spawnSync(command, args, { cwd, env: { ...env, ...extra }, encoding: "utf8", timeout: 240_000 });
        if (result.error) throw result.error;
        return { code: result.status, stdout: result.stdout, stderr: result.stderr };
      };
      const ok = (result, what) => {
        assert.equal(result.code, 0, `${what}: exit ${result.code}\n${result.stdout}\n${result.stderr}`);
        return result.stdout;
      };
      const project = (name, withManifest = true) => {
        const dir = path.join(work, `${name}-${path.basename(node.bin()).replace(/\W/g, "")}-${Math.random().toString(36).slice(2, 8)}`);
        mkdirSync(dir, { recursive: true });
        if (withManifest) writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "user-app", private: true, scripts: SCRIPTS }, null, 2));
        writeFileSync(path.join(dir, "hello.ts"), HELLO);
        return dir;
      };
      /** A .ts file, `rt run <script>`, the listing and `rt secrets --help`, through `rt` as `invoke` starts it. */
      const commands = (invoke, cwd) => {
        assert.equal(ok(invoke(["hello.ts", "you"], cwd), "rt hello.ts"), "hello you from rt true\n");
        assert.equal(ok(invoke(["run", "hello"], cwd), "rt run hello"), "hello script from rt true\n");
        assert.match(ok(invoke(["run"], cwd), "rt run"), /\$ rt run hello\n\s+rt hello\.ts script\n/);
        assert.match(ok(invoke(["secrets", "--help"], cwd), "rt secrets --help"), /^Usage: rt secrets <subcommand>/);
      };

      before(() => {
        env = {
          ...baseEnv,
          PATH: [node.bin(), ...baseEnv.PATH.split(path.delimiter).filter((dir) => !path.resolve(dir).startsWith(REPO))].join(path.delimiter),
        };
        version = execFileSync(path.join(node.bin(), "node"), ["--version"], { encoding: "utf8" }).trim();
      });

      test("npm i -D rt-runtime, then npx rt: a .ts file, rt run <script>, the listing, rt secrets --help; rt --version names the Node", () => {
        const dir = project("local");
        ok(run("npm", ["install", "--save-dev", "rt-runtime", "@types/node@24"], dir), "npm install");
        const npx = (args, cwd) => run("npx", ["rt", ...args], cwd);
        const first = npx(["--version"], dir);
        ok(first, "rt --version");
        if (node.old) {
          assert.match(first.stdout, /^\d+\.\d+\.\d+ \(rt's own Node\.js v24\.\d+\.\d+ at .*\/rt\/node\/v24\/node\)\n$/);
          // The first rt of the run fetched rt's Node and said so, on one line; later ones are silent.
          assert.match(first.stderr, /^(rt: Node\.js v\d+\.\d+\.\d+ is older than rt needs \(>= 22\.15\); fetching Node\.js 24 .*, once\n)?$/);
          if (process.platform === "linux") {
            // Through the compiled front (the platform package), rt's own Node is started directly,
            // not by the machine's old one: one process, so starting costs what it costs on a new Node.
            const parent = ok(npx(["-p", "require('fs').readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8')"], dir), "rt -p");
            assert.doesNotMatch(parent, /rt\.cjs/, "the parent of rt's Node is not the launcher on the old Node");
          }
        } else {
          assert.equal(first.stdout.replace(/ at .*/s, ""), `0.1.0 (Node.js ${version}`);
          assert.equal(first.stderr, "");
        }
        commands(npx, dir);
        // tsc typechecks the "rt" module and the rt global with nothing but the tsconfig's types entry.
        writeFileSync(path.join(dir, "typed.ts"), TYPED);
        writeFileSync(
          path.join(dir, "tsconfig.json"),
          JSON.stringify({
            compilerOptions: { strict: true, module: "nodenext", target: "es2023", noEmit: true, types: ["node", "rt-runtime"] },
            files: ["typed.ts", "hello.ts"],
          }),
        );
        assert.deepEqual(run(process.execPath, [TSC, "-p", dir], dir), { code: 0, stdout: "", stderr: "" });
        // node --import rt-runtime/register --test on a .ts test file: runs on 22.15 and 24; one line on 20.
        writeFileSync(path.join(dir, "math.test.ts"), TEST_FILE);
        const tested = run("node", ["--import", "rt-runtime/register", "--test", "--test-reporter=tap", "math.test.ts"], dir);
        if (node.old) {
          // An old Node's test runner reports the test process's stderr as a TAP comment: the line, once.
          assert.equal(tested.code, 1);
          const lines = (tested.stdout + tested.stderr).split("\n").filter((line) => line.includes("rt-runtime/register"));
          assert.equal(lines.length, 1, tested.stdout + tested.stderr);
          assert.match(
            lines[0],
            /^(# )?rt-runtime\/register: needs Node\.js >= 22\.15 \(module\.registerHooks\), but this is v\d+\.\d+\.\d+ \(\S+\): install Node\.js >= 22\.15, or run the program with rt/,
          );
        } else {
          ok(tested, "node --test");
          assert.match(tested.stdout, /^# pass 1$/m);
        }
      });

      if (node.old) {
        test("rt's own Node runs only from a directory of this user's alone: under another user's cache root, a private one for the run, removed at exit", () => {
          const cache = path.join(work, `foreign-cache-${Math.random().toString(36).slice(2, 8)}`);
          mkdirSync(path.join(cache, "rt"), { recursive: true });
          chownSync(path.join(cache, "rt"), 65534, 65534);
          const leftovers = () => readdirSync(tmpdir()).filter((entry) => entry.startsWith("rt-node-"));
          const before = leftovers();
          const result = run("npx", ["--yes", "rt-runtime", "--version"], project("foreign"), { XDG_CACHE_HOME: cache });
          ok(result, "rt --version");
          assert.match(result.stdout, new RegExp(`^\\d+\\.\\d+\\.\\d+ \\(Node\\.js v24\\.\\d+\\.\\d+ at ${tmpdir()}/rt-node-\\w+/v24/node\\)\n$`));
          assert.match(result.stderr, /rt: warning: cache directory \S+ is owned by uid 65534, not by you .*; rt's own Node\.js is fetched for this run only/);
          assert.deepEqual(readdirSync(path.join(cache, "rt")), []);
          assert.deepEqual(leftovers(), before);
        });
      }

      test("npm i -g rt-runtime into a fresh prefix: rt on PATH runs a .ts file, scripts, the listing, rt secrets --help", () => {
        const prefix = path.join(work, `global-${Math.random().toString(36).slice(2, 8)}`);
        ok(run("npm", ["install", "--global", "--prefix", prefix, "rt-runtime"], work), "npm install -g");
        const bin = process.platform === "win32" ? prefix : path.join(prefix, "bin");
        const dir = project("global");
        commands((args, cwd) => run("rt", args, cwd, { PATH: [bin, env.PATH].join(path.delimiter) }), dir);
      });

      test("npx rt-runtime with no install runs a .ts file, scripts, the listing, rt secrets --help", () => {
        const dir = project("npx");
        commands((args, cwd) => run("npx", ["--yes", "rt-runtime", ...args], cwd), dir);
      });
    });
  }
});
