/**
 * The replay stores of one process or one host against the conformance suite (the PostgreSQL one runs it in
 * postgresReplayStore.test.ts, which needs a server), and issue 31's findings on SqliteReplayStore: claims owned
 * (in the suite), no wait on the event loop while another connection holds the file, the file made 0600.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryReplayStore, postgresReplaySchema, SqliteReplayStore } from "../../sdk";
import { replayStoreConformance, sharedStoreOwnership } from "../support/replayStoreConformance";

const folder = mkdtempSync(join(tmpdir(), "svc-replay-stores-"));
const opened: SqliteReplayStore[] = [];
let files = 0;
const openSqlite = (path: string, options: ConstructorParameters<typeof SqliteReplayStore>[1] = {}) => {
  const store = new SqliteReplayStore(path, options);
  opened.push(store);
  return store;
};
afterAll(() => {
  for (const store of opened) store.close();
  rmSync(folder, { recursive: true, force: true });
});

replayStoreConformance("MemoryReplayStore", {
  make: async () => {
    const store = new MemoryReplayStore();
    return { store, twin: async () => store };
  },
});

replayStoreConformance("SqliteReplayStore", {
  make: async () => {
    const path = join(folder, `conformance-${++files}.db`);
    return { store: openSqlite(path), twin: async () => openSqlite(path) };
  },
});

sharedStoreOwnership("SqliteReplayStore", {
  make: async () => {
    const path = join(folder, `ownership-${++files}.db`);
    return async (options = {}) => openSqlite(path, options);
  },
});

describe("SqliteReplayStore (issue 31)", () => {
  it("waits for a file another connection holds without blocking the event loop, then claims", async () => {
    const path = join(folder, "locked.db");
    const store = openSqlite(path, { busyTimeoutMs: 3000 });
    const { DatabaseSync } = require("node:sqlite") as typeof import("node:sqlite");
    const other = new DatabaseSync(path);
    other.exec("BEGIN IMMEDIATE");
    const order: string[] = [];
    try {
      // The other connection lets go from a timer: it can only run if the claim does not hold the event loop.
      setTimeout(() => {
        order.push("timer ran");
        other.exec("ROLLBACK");
      }, 50);
      const claim = store.claim("held", 60_000, "a");
      order.push("claim returned");
      expect(await claim).toBe("claimed");
      order.push("claim settled");
      expect(order).toEqual(["claim returned", "timer ran", "claim settled"]);
    } finally {
      other.close();
    }
  });

  it("fails after busyTimeoutMs when the file stays locked", async () => {
    const path = join(folder, "stuck.db");
    const store = openSqlite(path, { busyTimeoutMs: 100 });
    const { DatabaseSync } = require("node:sqlite") as typeof import("node:sqlite");
    const other = new DatabaseSync(path);
    other.exec("BEGIN IMMEDIATE");
    try {
      await expect(store.claim("held", 60_000, "a")).rejects.toThrow(/locked|busy/i);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(await store.claim("held", 60_000, "a")).toBe("claimed");
  });

  it("creates the database file, and the files SQLite adds beside it, readable by their owner only", async () => {
    const path = join(folder, "private.db");
    const store = openSqlite(path);
    expect(await store.claim("job", 60_000, "a")).toBe("claimed");
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect((statSync(file).mode & 0o777).toString(8), file).toBe("600");
  });

  it("opens a file made before claims were owned (no owner column) and keeps its ids", async () => {
    const path = join(folder, "old.db");
    const { DatabaseSync } = require("node:sqlite") as typeof import("node:sqlite");
    const old = new DatabaseSync(path);
    old.exec("CREATE TABLE webhook_replay (key TEXT PRIMARY KEY, state TEXT NOT NULL, until INTEGER NOT NULL) WITHOUT ROWID");
    old.prepare("INSERT INTO webhook_replay VALUES ('seen', 'done', ?)").run(Date.now() + 60_000);
    old.close();
    const store = openSqlite(path);
    expect(await store.claim("seen", 60_000, "a")).toBe("duplicate");
    expect(await store.claim("new", 60_000, "a")).toBe("claimed");
  });
});

describe("PostgresReplayStore's documented schema", () => {
  it("docs/sdk.md shows exactly what the store runs to make its table", () => {
    const docs = readFileSync(join(__dirname, "..", "..", "docs", "sdk.md"), "utf8");
    expect(docs).toContain(`\`\`\`sql\n${postgresReplaySchema()}\n\`\`\``);
  });

  it("a table name is checked before it reaches SQL", () => {
    expect(postgresReplaySchema("app.hooks")).toContain("CREATE INDEX IF NOT EXISTS hooks_expires_at ON app.hooks (expires_at);");
    for (const bad of ["Hooks", "a;drop", "a.b.c", "", "1abc"]) expect(() => postgresReplaySchema(bad), bad).toThrow(/"table"/);
  });
});
