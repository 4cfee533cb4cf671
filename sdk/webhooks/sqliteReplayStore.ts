/**
 * A durable ReplayStore: one SQLite file (Node's built-in node:sqlite, no dependency), so a receiver that restarts
 * still refuses the deliveries it already processed. Every claim is one `BEGIN IMMEDIATE` transaction: SQLite's
 * file lock makes it atomic across connections, so several processes on one host may share the file (a local
 * disk; SQLite's locking is not reliable on network file systems). Commits are fsynced (WAL, synchronous=FULL)
 * before the answer. Entries are kept for the replay window and dropped after it (retention).
 *
 * node:sqlite is synchronous: SQLite's own busy wait would sleep on the event loop while another process holds the
 * file. So the connection never waits (busy_timeout 0); a call that finds the file locked tries again after a timer,
 * until busyTimeoutMs has passed. Claims are owned (see ReplayStore). The file is created readable by its owner only.
 */
import { closeSync, constants, openSync } from "node:fs";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { setTimeout as sleep } from "node:timers/promises";
import { REPLAY_DEFAULTS, type ClaimResult, type ReplayStore, type ReplayStoreOwnership, unownedClaimOwner } from "./replayStore";

export interface SqliteReplayStoreOptions extends ReplayStoreOwnership {
  /** How long a call keeps trying while another process's transaction holds the file; default 5 s (then it fails). */
  busyTimeoutMs?: number;
  /** How often expired entries are deleted (at the next claim after this long); default 60 s. */
  purgeEveryMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

interface Row {
  state: string;
  until: number;
  owner: string | null;
}

/** SQLITE_BUSY and SQLITE_LOCKED (primary codes): another connection holds the lock. */
const BUSY_CODES = new Set([5, 6]);
const isBusy = (error: unknown): boolean => BUSY_CODES.has(((error as { errcode?: number })?.errcode ?? 0) & 0xff);

/**
 * node:sqlite is loaded when a store is made, not when the sdk is imported: Node 22 prints an ExperimentalWarning
 * once when it loads, and receivers that never use this store should not see it. A new file is made 0600 first
 * (SQLite would make it 0644 under the usual umask; its -wal and -shm files copy the database file's mode).
 */
function openDatabase(path: string): DatabaseSync {
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_RDWR, 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const sqlite = require("node:sqlite") as typeof import("node:sqlite");
  return new sqlite.DatabaseSync(path);
}

export class SqliteReplayStore implements ReplayStore {
  private readonly db: DatabaseSync;
  private readonly now: () => number;
  private readonly busyTimeoutMs: number;
  private readonly purgeEveryMs: number;
  /** The owner recorded for calls without one (this instance's own, unless shared). */
  private readonly unowned: string | null;
  private lastPurge = Number.NEGATIVE_INFINITY;
  private closed = false;
  private readonly select: StatementSync;
  private readonly upsert: StatementSync;
  private readonly remove: StatementSync;
  private readonly purge: StatementSync;

  /** `path`: the database file (created 0600 when absent; its folder must exist). */
  constructor(path: string, options: SqliteReplayStoreOptions = {}) {
    if (typeof path !== "string" || path === "" || path === ":memory:") {
      throw new TypeError('SqliteReplayStore: "path" must be the path of a database file');
    }
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    if (!Number.isSafeInteger(this.busyTimeoutMs) || this.busyTimeoutMs < 0) throw new TypeError('SqliteReplayStore: "busyTimeoutMs" must be an integer >= 0');
    this.purgeEveryMs = options.purgeEveryMs ?? 60_000;
    if (!Number.isSafeInteger(this.purgeEveryMs) || this.purgeEveryMs < 0) throw new TypeError('SqliteReplayStore: "purgeEveryMs" must be an integer >= 0');
    this.now = options.now ?? Date.now;
    this.unowned = unownedClaimOwner(options, "SqliteReplayStore");
    this.db = openDatabase(path);
    try {
      // Set-up runs once, before any delivery is served: it may wait for the file like SQLite always did.
      this.db.exec(`PRAGMA busy_timeout = ${this.busyTimeoutMs}`);
      this.db.exec("PRAGMA journal_mode = WAL");
      this.db.exec("PRAGMA synchronous = FULL");
      this.db.exec(
        "CREATE TABLE IF NOT EXISTS webhook_replay (key TEXT PRIMARY KEY, state TEXT NOT NULL, until INTEGER NOT NULL) WITHOUT ROWID;" +
          "CREATE INDEX IF NOT EXISTS webhook_replay_until ON webhook_replay (until);",
      );
      // Files made before claims were owned lack the column; a claim then held by no one is NULL.
      const columns = this.db.prepare("PRAGMA table_info(webhook_replay)").all() as { name: string }[];
      if (!columns.some((c) => c.name === "owner")) this.db.exec("ALTER TABLE webhook_replay ADD COLUMN owner TEXT");
      this.db.exec("PRAGMA busy_timeout = 0");
      this.select = this.db.prepare("SELECT state, until, owner FROM webhook_replay WHERE key = ?");
      this.upsert = this.db.prepare(
        "INSERT INTO webhook_replay (key, state, until, owner) VALUES (?, ?, ?, ?) " +
          "ON CONFLICT (key) DO UPDATE SET state = excluded.state, until = excluded.until, owner = excluded.owner",
      );
      this.remove = this.db.prepare("DELETE FROM webhook_replay WHERE key = ? AND state = 'in-progress' AND owner IS ?");
      this.purge = this.db.prepare("DELETE FROM webhook_replay WHERE until <= ?");
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  claim(key: string, leaseMs: number = REPLAY_DEFAULTS.leaseMs, owner?: string): Promise<ClaimResult> {
    return this.whenFree((): ClaimResult => {
      const now = this.now();
      if (now - this.lastPurge >= this.purgeEveryMs) {
        this.purge.run(now);
        this.lastPurge = now;
      }
      const row = this.select.get(key) as Row | undefined;
      if (row !== undefined && row.until > now) return row.state === "done" ? "duplicate" : "in-progress";
      this.upsert.run(key, "in-progress", now + leaseMs, owner ?? this.unowned);
      return "claimed";
    });
  }

  complete(key: string, ttlMs: number = REPLAY_DEFAULTS.windowMs, owner?: string): Promise<void> {
    return this.whenFree(() => {
      const now = this.now();
      const row = this.select.get(key) as Row | undefined;
      // Another attempt took the job over after this one's lease lapsed: the claim is its to complete.
      if (row !== undefined && row.until > now && row.owner !== (owner ?? this.unowned)) return;
      this.upsert.run(key, "done", now + ttlMs, owner ?? this.unowned);
    });
  }

  release(key: string, owner?: string): Promise<void> {
    return this.whenFree(() => {
      this.remove.run(key, owner ?? this.unowned);
    });
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

  /**
   * Runs `body` in one IMMEDIATE transaction (the write lock first, so no other connection can claim between the
   * read and the write). While another connection holds the lock, tries again after a timer (1 ms doubling to
   * 50 ms), never sleeping on the event loop, until busyTimeoutMs; then the last busy error is thrown.
   */
  private async whenFree<T>(body: () => T): Promise<T> {
    const deadline = performance.now() + this.busyTimeoutMs;
    for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
      try {
        return this.transaction(body);
      } catch (error) {
        if (!isBusy(error) || performance.now() >= deadline) throw error;
      }
      await sleep(Math.max(0, Math.min(pause, deadline - performance.now())));
    }
  }

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
