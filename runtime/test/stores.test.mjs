// rt.sql and rt.redis against real servers (PostgreSQL and redis-server from Debian packages,
// started on loopback by test/support/servers.mjs), and --sql-preconnect / --kvstore-preconnect
// against servers that refuse or never answer.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { PG_PASSWORD, freePort, postgresUnavailable, redisUnavailable, startPostgres, startRedis } from "../../test/support/servers.mjs";
import { FIXTURES, rt, skipUnlessCI } from "./rt.mjs";

const cwd = path.join(FIXTURES, "stores");
const NO_STORES = { DATABASE_URL: "", POSTGRES_URL: "", REDIS_URL: "", VALKEY_URL: "" };
const run = (args, env) => rt(args, { cwd, env: { ...NO_STORES, ...env } });

/** Runs `body` when the component is available; else a printed skip (a failure under CI). */
const needs = (unavailable, body) => (t) => (unavailable ? skipUnlessCI(t, unavailable) : body(t));

/** A server started for the enclosing suite when it is available: `server()` is { url, port }. */
function suiteServer(unavailable, start) {
  let server;
  before(async () => {
    if (!unavailable) server = await start();
  });
  after(() => server?.stop());
  return () => server;
}

describe("rt.sql with a running PostgreSQL", () => {
  const unavailable = postgresUnavailable();
  const postgres = suiteServer(unavailable, startPostgres);

  test(
    "queries bind their parameters: an injection attempt is stored as data",
    needs(unavailable, () => {
      const result = run(["query.ts"], { DATABASE_URL: postgres().url });
      assert.equal(result.stderr, "");
      assert.equal(result.stdout, `{"name":"x'); drop table people; --","answer":42}\nrows: 1\nunsafe: bound\nin the transaction: 2\n`);
      assert.equal(result.code, 0);
    }),
  );

  test(
    "POSTGRES_URL is used when DATABASE_URL is not set",
    needs(unavailable, () => {
      const result = run(["-p", "rt.sql`select current_user as u`.then((rows) => rows[0].u)"], { POSTGRES_URL: postgres().url });
      assert.deepEqual([result.stdout, result.stderr, result.code], ["rt\n", "", 0]);
    }),
  );

  test(
    "--sql-preconnect connects at startup; an idle program still exits at once",
    needs(unavailable, () => {
      const started = Date.now();
      const result = run(["--sql-preconnect", "idle.ts"], { DATABASE_URL: postgres().url });
      assert.deepEqual([result.stdout, result.stderr, result.code], ["program done\n", "", 0]);
      assert.ok(Date.now() - started < 5000, "no connection keeps the program alive");
    }),
  );

  test(
    "--sql-preconnect with wrong credentials: one warning, and the first query reports it",
    needs(unavailable, () => {
      const url = postgres().url.replace(PG_PASSWORD, "wrong-password");
      const result = run(["--sql-preconnect", "first-query.ts"], { DATABASE_URL: url });
      const message = `password authentication failed for user "rt"`;
      assert.equal(
        result.stderr,
        `warning: --sql-preconnect: could not connect to PostgreSQL at postgres://rt:***@127.0.0.1:${postgres().port}/postgres: ${message}\n`,
      );
      assert.equal(result.stdout, `sql: ${message}\n`);
      assert.ok(!result.stderr.includes("wrong-password") && !result.stdout.includes("wrong-password"));
    }),
  );
});

describe("rt.redis with a running redis-server", () => {
  const unavailable = redisUnavailable();
  const redis = suiteServer(unavailable, startRedis);

  test(
    "commands and transactions; the program exits when done",
    needs(unavailable, () => {
      const result = run(["kv.ts"], { REDIS_URL: redis().url });
      assert.equal(result.stderr, "");
      assert.equal(result.stdout, `hello from rt.redis\n1 2\n["OK","1"]\n`);
      assert.equal(result.code, 0);
    }),
  );

  test(
    "VALKEY_URL is used when REDIS_URL is not set; --kvstore-preconnect with an idle program",
    needs(unavailable, () => {
      const result = run(["--kvstore-preconnect", "-p", "rt.redis.ping()"], { VALKEY_URL: redis().url });
      assert.deepEqual([result.stdout, result.stderr, result.code], ["PONG\n", "", 0]);
      const idle = run(["--kvstore-preconnect", "idle.ts"], { REDIS_URL: redis().url });
      assert.deepEqual([idle.stdout, idle.stderr, idle.code], ["program done\n", "", 0]);
    }),
  );
});

describe("preconnect to unreachable servers", () => {
  test("a refused connection: a warning for each store, the first query and command report it", async () => {
    const port = await freePort();
    const result = run(["--sql-preconnect", "--kvstore-preconnect", "first-query.ts"], {
      DATABASE_URL: `postgres://rt:db-password@127.0.0.1:${port}/app`,
      REDIS_URL: `redis://:kv-password@127.0.0.1:${port}`,
    });
    const refused = `connect ECONNREFUSED 127.0.0.1:${port}`;
    assert.deepEqual(result.stderr.split("\n").sort(), [
      "",
      `warning: --kvstore-preconnect: could not connect to Redis at redis://:***@127.0.0.1:${port}: ${refused}`,
      `warning: --sql-preconnect: could not connect to PostgreSQL at postgres://rt:***@127.0.0.1:${port}/app: ${refused}`,
    ]);
    assert.equal(result.stdout, `sql: ${refused}\nredis: ${refused}\n`);
    assert.equal(result.code, 0);
  });

  test("a server that accepts and never answers: each warning comes after the connect timeout, no hang", async (t) => {
    const silent = createServer(() => {}).listen(0, "127.0.0.1");
    t.after(() => silent.close());
    await new Promise((resolve) => silent.once("listening", resolve));
    const { port } = silent.address();
    const started = Date.now();
    const result = run(["--sql-preconnect", "--kvstore-preconnect", "first-query.ts"], {
      DATABASE_URL: `postgres://rt:pw@127.0.0.1:${port}/app?connect_timeout=1`,
      REDIS_URL: `redis://:pw@127.0.0.1:${port}?connect_timeout=1`,
      WAIT_MS: "1500",
    });
    const elapsed = Date.now() - started;
    const [end, redisWarning, sqlWarning] = result.stderr.split("\n").sort();
    assert.match(
      sqlWarning,
      new RegExp(
        `^warning: --sql-preconnect: could not connect to PostgreSQL at postgres://rt:\\*\\*\\*@127.0.0.1:${port}/app\\?connect_timeout=1: .*timeout`,
        "i",
      ),
    );
    assert.equal(
      redisWarning,
      `warning: --kvstore-preconnect: could not connect to Redis at redis://:***@127.0.0.1:${port}?connect_timeout=1: no answer from the server within 1 s`,
    );
    assert.equal(end, "");
    assert.match(result.stdout, /^sql: .*timeout.*\nredis: no answer from the server within 1 s\n$/i);
    assert.ok(elapsed < 10_000, `took ${elapsed} ms`);
  });

  test("a query made while the preconnect is still connecting reports the failure itself; the next one connects again", async (t) => {
    const silent = createServer(() => {}).listen(0, "127.0.0.1");
    t.after(() => silent.close());
    await new Promise((resolve) => silent.once("listening", resolve));
    const result = run(["--sql-preconnect", "query-at-once.ts"], { DATABASE_URL: `postgres://rt@127.0.0.1:${silent.address().port}/app?connect_timeout=1` });
    assert.equal(result.stdout, "first: timed out, retried: true\nsecond: timed out, retried: true\n");
    assert.match(result.stderr, /^warning: --sql-preconnect: could not connect to PostgreSQL at .*\n$/);
  });

  test("no URL: --sql-preconnect warns what to set, a query rejects with the same message", () => {
    const message = "rt.sql needs a database: set DATABASE_URL (or POSTGRES_URL), e.g. postgres://user:password@localhost:5432/db";
    const result = run(["--sql-preconnect", "no-url.ts"], {});
    assert.equal(result.stderr, `warning: --sql-preconnect: could not connect to PostgreSQL: ${message}\n`);
    assert.equal(result.stdout, `${message}\n`);
    assert.equal(result.code, 0);
  });

  test("an invalid URL is named without its text (it may hold a password)", () => {
    const result = run(["--kvstore-preconnect", "idle.ts"], { REDIS_URL: "not a url :secret@" });
    assert.equal(
      result.stderr,
      "warning: --kvstore-preconnect: could not connect to Redis: REDIS_URL is not a valid URL: expected redis://[user:password@]host:port[/db]\n",
    );
    assert.equal(result.stdout, "program done\n");
  });

  test("rt file.ts loads neither client unless the program uses it", () => {
    const result = run(
      [
        "-p",
        "Object.keys(require.cache).filter((f) => /postgres|@redis|[\\\\/](sql|redis)\\.cjs$/.test(f)).length + ':' + typeof rt.sql + ':' + typeof rt.redis",
      ],
      {},
    );
    assert.deepEqual([result.stdout, result.stderr], ["0:function:object\n", ""]);
  });
});
