/**
 * Issue 34: PostgresReplayStore on a real PostgreSQL 15 (scripts/postgresServer.ts: installed by
 * scripts/ensure-postgres.sh when missing, never skipped). The conformance suite the other stores pass, then what is
 * its own: the table made on first use (also by receivers starting together), the bounded purge along the expiry
 * index, close() ending the pool, option errors, and the password never shown. Needs a server, so not in test:unit;
 * a server that cannot start fails each test with the reason (test/support/serverBeforeAll.ts), and one started on a
 * port another process took first is started on the next one chosen.
 */
import { execFileSync } from "node:child_process";
import { type AddressInfo, createServer, type Server } from "node:net";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, startPostgres, type PostgresServer } from "../../scripts/postgresServer";
import { PostgresReplayStore, postgresReplaySchema } from "../../sdk";
import { replayStoreConformance, sharedStoreOwnership } from "../support/replayStoreConformance";
import { startServerBeforeAll } from "../support/serverBeforeAll";

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

let pg: PostgresServer;
const stores: PostgresReplayStore[] = [];
let tables = 0;

const connectionString = (password = pg.password) => `postgres://${pg.user}:${encodeURIComponent(password)}@127.0.0.1:${pg.port}/${pg.database}`;
const open = (options: Partial<ConstructorParameters<typeof PostgresReplayStore>[0]> = {}) => {
  const store = new PostgresReplayStore({ connectionString: connectionString(), ...options });
  stores.push(store);
  return store;
};
const count = async (sql: string) => Number((await pg.query(sql)).trim());

// The port PostgreSQL is first given is one this file holds, as when another process takes the port chosen as free
// before the server binds it: the server must start on the next port chosen.
let portHolder: Server | undefined;
const choices: number[] = [];
startServerBeforeAll(async () => {
  portHolder = createServer();
  await new Promise<void>((resolve) => portHolder!.listen(0, "127.0.0.1", resolve));
  const taken = (portHolder.address() as AddressInfo).port;
  pg = await startPostgres({
    choosePort: async () => {
      choices.push(choices.length === 0 ? taken : await freePort());
      return choices.at(-1)!;
    },
  });
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await pg?.stop();
  await new Promise<void>((resolve) => (portHolder ? portHolder.close(() => resolve()) : resolve()));
});

describe("the test server", () => {
  it("starts on another port when the port chosen as free was taken before it bound it", () => {
    expect(choices).toHaveLength(2);
    expect(pg.port).toBe(choices[1]);
    expect(pg.port).not.toBe((portHolder!.address() as AddressInfo).port);
  });
});

replayStoreConformance("PostgresReplayStore", {
  make: async () => {
    const table = `replay_conformance_${++tables}`;
    return { store: open({ table }), twin: async () => open({ table }) };
  },
});

sharedStoreOwnership("PostgresReplayStore", {
  make: async () => {
    const table = `replay_ownership_${++tables}`;
    return async (options = {}) => open({ table, ...options });
  },
});

describe("PostgresReplayStore", () => {
  it("makes its table and index on first use, also when several receivers start together", async () => {
    const table = "replay_started_together";
    const together = Array.from({ length: 4 }, () => open({ table }));
    const results = await Promise.all(together.map((store, i) => store.claim("first", 60_000, `owner-${i}`)));
    expect(results.filter((r) => r === "claimed")).toHaveLength(1);
    expect(await pg.query(`SELECT indexname FROM pg_indexes WHERE tablename = '${table}' ORDER BY indexname`)).toBe(`${table}_expires_at\n${table}_pkey\n`);
  });

  it("uses a table made by hand from the documented schema, without trying to make it (createTable: false)", async () => {
    await pg.query(`CREATE SCHEMA app; ${postgresReplaySchema("app.webhook_replay")}`);
    const store = open({ table: "app.webhook_replay", createTable: false });
    expect(await store.claim("k", 60_000, "a")).toBe("claimed");
    expect(await count("SELECT count(*) FROM app.webhook_replay")).toBe(1);
    const missing = open({ table: "not_there", createTable: false });
    await expect(missing.claim("k", 60_000, "a")).rejects.toThrow(/not_there/);
  });

  it("deletes expired ids in bounded batches along the expiry index, keeping live ones", async () => {
    const table = "replay_purge";
    const store = open({ table, purgeEveryMs: 1, purgeBatch: 1000 });
    expect(await store.claim("live", 60_000, "a")).toBe("claimed");
    await pg.query(
      `INSERT INTO ${table} SELECT 'old-' || i, 'done', NULL, now() - interval '1 hour' FROM generate_series(1, 2500) i;
       INSERT INTO ${table} SELECT 'kept-' || i, 'done', NULL, now() + interval '1 hour' FROM generate_series(1, 20000) i;
       ANALYZE ${table};`,
    );
    const plan = await pg.query(`EXPLAIN SELECT key FROM ${table} WHERE expires_at <= now() ORDER BY expires_at LIMIT 1000`);
    expect(plan).toMatch(new RegExp(`Index Scan using ${table}_expires_at`));
    const expired = () => count(`SELECT count(*) FROM ${table} WHERE expires_at <= now()`);
    // One claim starts one purge of at most purgeBatch; a full batch lets the next claim purge again.
    expect(await store.claim("next-1", 60_000, "a")).toBe("claimed");
    await expect.poll(expired).toBe(1500);
    for (let i = 2; (await expired()) > 0 && i < 50; i++) {
      await store.claim(`next-${i}`, 60_000, "a");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await expired()).toBe(0);
    expect(await count(`SELECT count(*) FROM ${table} WHERE key LIKE 'kept-%'`)).toBe(20000);
    expect(await store.claim("live", 60_000, "b")).toBe("in-progress");
  });

  it("a claim that loses a race for a lapsed done key to a concurrent claim answers in-progress, never duplicate", async () => {
    const table = "replay_race";
    const store = open({ table });
    expect(await store.claim("old", 60_000, "first")).toBe("claimed");
    await store.complete("old", 1, "first"); // done, and its window ends at once
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Another receiver's claim of the lapsed key, held uncommitted: this store's claim takes its snapshot, then
    // waits on the row; once the other commits, the upsert sees a live claim and does not apply.
    const { Client } = require("pg") as { Client: new (o: Record<string, unknown>) => PgClient };
    const other = new Client({ connectionString: connectionString() });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query(`UPDATE ${table} SET state = 'in-progress', owner = 'other', expires_at = now() + interval '1 hour' WHERE key = 'old'`);
      const racing = store.claim("old", 60_000, "late");
      await expect.poll(() => count(`SELECT count(*) FROM pg_locks WHERE NOT granted`)).toBeGreaterThan(0);
      await other.query("COMMIT");
      expect(await racing).toBe("in-progress");
    } finally {
      await other.end();
    }
  });

  it("close() ends its pool: its connections leave the server and later calls fail", async () => {
    const store = new PostgresReplayStore({ connectionString: connectionString(), table: "replay_close", maxConnections: 3 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => store.claim(`k${i}`, 60_000, "a")));
    const mine = () => count("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pulumi-svc webhook receiver'");
    expect(await mine()).toBeGreaterThan(0);
    const before = await mine();
    await store.close();
    await expect.poll(mine).toBeLessThanOrEqual(before - 1);
    await expect(store.claim("k9", 60_000, "a")).rejects.toThrow(/closed/);
  });

  it("pg is loaded when a store is made, not when the sdk is imported (the built package)", () => {
    const probe = `
      const loaded = () => Object.keys(require.cache).some((path) => path.includes("/node_modules/pg/"));
      const sdk = require(${JSON.stringify(join(__dirname, "..", "..", "dist", "sdk"))});
      const before = loaded();
      new sdk.PostgresReplayStore({ connectionString: "postgres://u@127.0.0.1:1/db" }).close();
      console.log(JSON.stringify({ before, after: loaded() }));`;
    expect(JSON.parse(execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" }))).toEqual({ before: false, after: true });
  });

  it("bad options are a TypeError naming the option, never echoing the connection string", () => {
    const secret = "s3cret-pass-word";
    const attempts: [unknown, RegExp][] = [
      [{}, /"connectionString"/],
      [{ connectionString: `mysql://u:${secret}@h/db` }, /"connectionString" must be a postgres:\/\/ URL/],
      [{ connectionString: `postgres://u:${secret}@h/db`, table: "Bad-Name" }, /"table"/],
      [{ connectionString: `postgres://u:${secret}@h/db`, maxConnections: 0 }, /"maxConnections"/],
      [{ connectionString: `postgres://u:${secret}@h/db`, purgeBatch: 1.5 }, /"purgeBatch"/],
    ];
    for (const [options, message] of attempts) {
      let error: unknown;
      try {
        new PostgresReplayStore(options as never);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect(String((error as Error).message)).toMatch(message);
      expect(inspect(error)).not.toContain(secret);
    }
  });

  it("the password never shows: not in the store's inspection or JSON, not in a failed claim's error", async () => {
    const store = open({ table: "replay_secret" });
    await store.claim("k", 60_000, "a");
    expect(inspect(store, { depth: 20, showHidden: true })).not.toContain(pg.password);
    expect(JSON.stringify(store)).not.toContain(pg.password);
    const wrong = "wrong-password-4f1d9c";
    const refused = open({ connectionString: connectionString(wrong), table: "replay_secret" });
    const error = await refused.claim("k", 60_000, "a").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(inspect(error, { depth: 20 })).not.toContain(wrong);
    expect(inspect(refused, { depth: 20, showHidden: true })).not.toContain(wrong);
  });
});
