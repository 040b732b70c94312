// A local npm registry for the auto-install tests and benchmarks: verdaccio, offline (no
// uplinks) unless asked to proxy a real registry, in a temporary directory on a free loopback port. Packages are published over the
// registry's own HTTP API, as `npm publish` does (a tarball attached to the version document).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./servers.mjs";

const VERDACCIO = path.join(path.dirname(createRequire(import.meta.url).resolve("verdaccio/package.json")), "bin", "verdaccio");

/**
 * Starts the registry; returns { url, token, publish(dir), stop() }. Packages of @rt-private need
 * the token. With `uplink` (a registry URL), packages not published here come from there (what
 * installing rt-runtime needs: its dependencies), except rt-runtime's own.
 */
export async function startRegistry({ uplink } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "rt-registry-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = path.join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      `storage: ${path.join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${path.join(dir, "htpasswd")}`,
      ...(uplink ? ["uplinks:", "  upstream:", `    url: ${uplink}`, "    timeout: 60s", "    maxage: 30m"] : ["uplinks: {}"]),
      "packages:",
      "  '@rt-private/*':",
      "    access: $authenticated",
      "    publish: $authenticated",
      "  'rt-runtime*':",
      "    access: $all",
      "    publish: $authenticated",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      ...(uplink ? ["    proxy: upstream"] : []),
      "web:",
      "  enable: false",
      "log: { type: stdout, format: pretty, level: error }",
      "",
    ].join("\n"),
  );
  const server = spawn(process.execPath, [VERDACCIO, "--config", config, "--listen", `127.0.0.1:${port}`], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  server.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  server.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  const stop = () => {
    server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  for (let waited = 0; ; waited += 100) {
    if (server.exitCode !== null) throw new Error(`verdaccio exited: ${output}`);
    if (
      await fetch(`${url}/-/ping`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (waited > 30_000) {
      stop();
      throw new Error(`verdaccio did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const user = await fetch(`${url}/-/user/org.couchdb.user:rt`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "rt", password: "rt-registry-password" }),
  }).then((response) => response.json());

  /** Publishes the package in `packageDir` (its package.json and files), as `npm publish` does. */
  async function publish(packageDir) {
    const manifest = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8"));
    const packed = spawnSync("tar", ["-czf", "-", "--transform", "s,^\\.,package,", "--owner=0", "--group=0", "-C", packageDir, "."], { maxBuffer: 64 << 20 });
    if (packed.status !== 0) throw new Error(`tar failed: ${packed.stderr}`);
    const tarball = packed.stdout;
    const file = `${manifest.name.split("/").pop()}-${manifest.version}.tgz`;
    const body = {
      _id: manifest.name,
      name: manifest.name,
      "dist-tags": { latest: manifest.version },
      versions: {
        [manifest.version]: {
          ...manifest,
          _id: `${manifest.name}@${manifest.version}`,
          dist: {
            shasum: createHash("sha1").update(tarball).digest("hex"),
            integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
            tarball: `${url}/${manifest.name}/-/${file}`,
          },
        },
      },
      _attachments: { [file]: { content_type: "application/octet-stream", data: tarball.toString("base64"), length: tarball.length } },
    };
    const put = () =>
      fetch(`${url}/${manifest.name.replace("/", "%2f")}`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${user.token}` },
        body: JSON.stringify(body),
      });
    // A kept-alive connection may have been closed by the registry while the caller was
    // blocked in spawnSync: one more try on a new connection.
    const response = await put().catch(put);
    if (!response.ok) throw new Error(`publishing ${manifest.name}@${manifest.version}: ${response.status} ${await response.text()}`);
  }

  return { url, token: user.token, publish, stop };
}
