/**
 * A durable ReplayStore: one SQLite file (Node's built-in node:sqlite, no dependency), so a receiver that restarts
 * still refuses the deliveries it already processed. Every claim is one `BEGIN IMMEDIATE` transaction: SQLite's
 * file lock makes it atomic across connections, so several processes on one host may share the file (a local
 * disk; SQLite's locking is not reliable on network file systems). Commits are fsynced (WAL, synchronous=FULL)
 * before the answer. Entries are kept for the replay window and dropped after it (retention).
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { REPLAY_DEFAULTS, type ClaimResult, type ReplayStore } from "./replayStore";

export interface SqliteReplayStoreOptions {
  /** How long a claim waits for another process's transaction on the same file; default 5 s. */
  busyTimeoutMs?: number;
  /** How often expired entries are deleted (at the next claim after this long); default 60 s. */
  purgeEveryMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

interface Row {
  state: string;
  until: number;
}

/**
 * node:sqlite is loaded when a store is made, not when the sdk is imported: Node 22 prints an ExperimentalWarning
 * once when it loads, and receivers that never use this store should not see it.
 */
function openDatabase(path: string): DatabaseSync {
  const sqlite = require("node:sqlite") as typeof import("node:sqlite");
  return new sqlite.DatabaseSync(path);
}

export class SqliteReplayStore implements ReplayStore {
  private readonly db: DatabaseSync;
  private readonly now: () => number;
  private readonly purgeEveryMs: number;
  private lastPurge = Number.NEGATIVE_INFINITY;
  private closed = false;
  private readonly select: StatementSync;
  private readonly upsert: StatementSync;
  private readonly remove: StatementSync;
  private readonly purge: StatementSync;

  /** `path`: the database file (created when absent; its folder must exist). */
  constructor(path: string, options: SqliteReplayStoreOptions = {}) {
    if (typeof path !== "string" || path === "" || path === ":memory:") {
      throw new TypeError('SqliteReplayStore: "path" must be the path of a database file');
    }
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0) throw new TypeError('SqliteReplayStore: "busyTimeoutMs" must be an integer >= 0');
    this.purgeEveryMs = options.purgeEveryMs ?? 60_000;
    if (!Number.isSafeInteger(this.purgeEveryMs) || this.purgeEveryMs < 0) throw new TypeError('SqliteReplayStore: "purgeEveryMs" must be an integer >= 0');
    this.now = options.now ?? Date.now;
    this.db = openDatabase(path);
    try {
      this.db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      this.db.exec("PRAGMA journal_mode = WAL");
      this.db.exec("PRAGMA synchronous = FULL");
      this.db.exec(
        "CREATE TABLE IF NOT EXISTS webhook_replay (key TEXT PRIMARY KEY, state TEXT NOT NULL, until INTEGER NOT NULL) WITHOUT ROWID;" +
          "CREATE INDEX IF NOT EXISTS webhook_replay_until ON webhook_replay (until);",
      );
      this.select = this.db.prepare("SELECT state, until FROM webhook_replay WHERE key = ?");
      this.upsert = this.db.prepare(
        "INSERT INTO webhook_replay (key, state, until) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET state = excluded.state, until = excluded.until",
      );
      this.remove = this.db.prepare("DELETE FROM webhook_replay WHERE key = ? AND state = 'in-progress'");
      this.purge = this.db.prepare("DELETE FROM webhook_replay WHERE until <= ?");
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  claim(key: string, leaseMs: number = REPLAY_DEFAULTS.leaseMs): ClaimResult {
    const now = this.now();
    return this.transaction(() => {
      if (now - this.lastPurge >= this.purgeEveryMs) {
        this.purge.run(now);
        this.lastPurge = now;
      }
      const row = this.select.get(key) as Row | undefined;
      if (row !== undefined && row.until > now) return row.state === "done" ? "duplicate" : "in-progress";
      this.upsert.run(key, "in-progress", now + leaseMs);
      return "claimed";
    });
  }

  complete(key: string, ttlMs: number = REPLAY_DEFAULTS.windowMs): void {
    this.upsert.run(key, "done", this.now() + ttlMs);
  }

  release(key: string): void {
    this.remove.run(key);
  }

  /** How many ids are held (expired ones included until the next purge). */
  get size(): number {
    return Number((this.db.prepare("SELECT count(*) AS n FROM webhook_replay").get() as { n: number }).n);
  }

  /** Closes the file; a closed store throws on use (the receiver then answers 500). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  /** IMMEDIATE takes the write lock first, so no other connection can claim between the read and the write. */
  private transaction<T>(body: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = body();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      try {
        this.db.exec("ROLLBACK");
      } catch {
        // No transaction left to roll back (SQLite already ended it); the first error is the one to tell.
      }
      throw error;
    }
  }
}
