// Real PostgreSQL and Redis servers for the tests and benchmarks, each in a temporary directory
// on a free loopback port, stopped when the caller is done. PostgreSQL refuses to run as root,
// so under root it runs as the `postgres` user of Debian's package (through runuser).
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const PG_USER = "rt";
export const PG_PASSWORD = "pg-s3cret-never-printed";

/** A port nothing listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** PostgreSQL's server binaries (Debian keeps them out of PATH), or undefined when not installed. */
function postgresBin() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  const bin = version && path.join(root, version, "bin");
  return bin && existsSync(path.join(bin, "initdb")) ? bin : undefined;
}

/** Why PostgreSQL cannot run here, or undefined when it can. */
export function postgresUnavailable() {
  if (!postgresBin()) return "needs PostgreSQL's server (Debian: postgresql)";
  if (process.getuid?.() === 0 && spawnSync("id", ["postgres"]).status !== 0) return "needs the postgres user to run PostgreSQL as root";
  return undefined;
}

/** Why Redis cannot run here, or undefined when it can. */
export function redisUnavailable() {
  return spawnSync("sh", ["-c", "command -v redis-server"]).status === 0 ? undefined : "needs redis-server (Debian: redis-server)";
}

/** Starts PostgreSQL with a password-protected superuser; returns { url, port, stop }. */
export async function startPostgres() {
  const bin = postgresBin();
  const dir = mkdtempSync(path.join(tmpdir(), "rt-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (command, args) => {
    const argv = asRoot ? ["runuser", "-u", "postgres", "--", path.join(bin, command), ...args] : [path.join(bin, command), ...args];
    const result = spawnSync(argv[0], argv.slice(1), { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
  const pwfile = path.join(dir, "pw");
  writeFileSync(pwfile, PG_PASSWORD);
  if (asRoot) {
    const { uid, gid } = idOf("postgres");
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-U", PG_USER, "--pwfile", pwfile, "--auth=scram-sha-256", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  run("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-w", "-o", `-p ${port} -k ${dir} -h 127.0.0.1 -c fsync=off`, "start"]);
  return {
    port,
    url: `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/postgres`,
    stop() {
      spawnSync(
        ...(asRoot
          ? ["runuser", ["-u", "postgres", "--", path.join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"]]
          : [path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "stop"]]),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts redis-server without persistence; returns { url, port, stop }. */
export async function startRedis() {
  const dir = mkdtempSync(path.join(tmpdir(), "rt-redis-"));
  const port = await freePort();
  const server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise((resolve, reject) => {
    let output = "";
    server.stdout.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
      if (/Ready to accept connections/.test(output)) resolve();
    });
    server.on("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  server.stdout.resume();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop() {
      server.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function idOf(user) {
  const uid = Number(spawnSync("id", ["-u", user], { encoding: "utf8" }).stdout);
  const gid = Number(spawnSync("id", ["-g", user], { encoding: "utf8" }).stdout);
  return { uid, gid };
}
