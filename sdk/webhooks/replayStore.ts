/**
 * Replay protection for webhook receivers: a delivery is identified by its `eventNotificationJobId`, and a job id
 * already processed within the window is not handed to the callback again. Deliveries are at-least-once (the
 * platform sends a job again when it did not get a 200/204 in time), so a repeat is normal, not only an attack.
 *
 * The store is pluggable: the in-memory default holds ids for one process; receivers that restart pass a durable
 * store (SqliteReplayStore, one file), receivers on several hosts behind one URL a shared one (PostgresReplayStore,
 * or a store of your own on Redis, another SQL database, ...).
 */
import { randomUUID } from "node:crypto";

/**
 * What `claim` found: `claimed` (this caller now holds the job and must `complete` or `release` it), `duplicate`
 * (the job was completed within the window), `in-progress` (another attempt holds it and its lease has not lapsed).
 */
export type ClaimResult = "claimed" | "duplicate" | "in-progress";

export const CLAIM_RESULTS: readonly ClaimResult[] = ["claimed", "duplicate", "in-progress"];

/**
 * A job id's life: absent → `claim` → in progress (for at most `leaseMs`) → `complete` → done (for `ttlMs`), or
 * `release` → absent again. `claim` is the only check: it must decide and record in one atomic step, so that of two
 * concurrent claims of one key exactly one gets `claimed` (Redis: `SET key in-progress:<owner> NX PX leaseMs`, then
 * `GET` on failure; SQL: an upsert on a unique key whose update applies only when the hold has lapsed).
 *
 * Claims are owned: the receiver passes a random `owner` per attempt to all three calls. Only the holder's
 * `complete` and `release` count, so an attempt that outlived its lease cannot release or complete the claim of the
 * attempt that took the job over. A store written before owners existed ignores the argument and keeps working.
 * Calls without an owner act for the store instance that receives them: they match the claims that instance made
 * without one, never another instance's (another process's), unless the store is told to share them
 * (`shareUnownedClaims`, ReplayStoreOwnership).
 */
export interface ReplayStore {
  /** Hold `key` as in progress for `leaseMs`, for `owner`, unless it is held (in progress or done) and its hold has not lapsed. */
  claim(key: string, leaseMs: number, owner?: string): ClaimResult | Promise<ClaimResult>;
  /**
   * The job was processed: remember `key` as done for `ttlMs` (the replay window). Counts when `owner` holds the
   * key, or when the key is absent or its hold lapsed; ignored while another owner holds it.
   */
  complete(key: string, ttlMs: number, owner?: string): void | Promise<void>;
  /** The job failed: forget `key` if it is in progress for `owner`, so the platform's next attempt is processed. */
  release(key: string, owner?: string): void | Promise<void>;
}

/** How a shared store (SQLite, PostgreSQL) treats calls without an owner. */
export interface ReplayStoreOwnership {
  /**
   * false (the default): a call without an owner acts for this store instance alone, so a `release` or `complete`
   * without an owner from another instance (another process on the same file or table) never frees or completes a
   * claim this one made. true: calls without an owner match the claims made without one by any instance, as before
   * claims were owned (for a process that claims and another that releases on purpose).
   */
  shareUnownedClaims?: boolean;
}

/** The owner a call without one is recorded as: this instance's own, or none (null) when unowned claims are shared. */
export function unownedClaimOwner(options: ReplayStoreOwnership, store: string): string | null {
  const shared = options.shareUnownedClaims ?? false;
  if (typeof shared !== "boolean") throw new TypeError(`${store}: "shareUnownedClaims" must be true or false`);
  return shared ? null : `instance:${randomUUID()}`;
}

export const REPLAY_DEFAULTS = {
  /** How long a processed job id is remembered: longer than any retry schedule of a delivery. */
  windowMs: 24 * 60 * 60 * 1000,
  /**
   * How long an attempt holds a job before its claim lapses. It only matters when the holder died mid-callback
   * (a durable or shared store): a later attempt is then processed instead of being answered 409 for ever. Keep it
   * above the longest callback: an attempt still running when its lease lapses can be overlapped by a retry.
   */
  leaseMs: 60 * 1000,
  /** The in-memory store's bound: past it the oldest ids are forgotten first (their replays are then accepted). */
  maxEntries: 100_000,
} as const;

interface Hold {
  state: "in-progress" | "done";
  until: number;
  owner: string | undefined;
}

/** The default store: a Map in this process, bounded, expired entries dropped as they are met. */
export class MemoryReplayStore implements ReplayStore {
  private readonly held = new Map<string, Hold>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(maxEntries: number = REPLAY_DEFAULTS.maxEntries, now: () => number = Date.now) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError("MemoryReplayStore: maxEntries must be a positive integer");
    this.maxEntries = maxEntries;
    this.now = now;
  }

  claim(key: string, leaseMs: number, owner?: string): ClaimResult {
    const now = this.now();
    const hold = this.held.get(key);
    if (hold !== undefined && hold.until > now) return hold.state === "done" ? "duplicate" : "in-progress";
    this.hold(key, { state: "in-progress", until: now + leaseMs, owner }, now);
    return "claimed";
  }

  complete(key: string, ttlMs: number, owner?: string): void {
    const now = this.now();
    const hold = this.held.get(key);
    if (hold !== undefined && hold.until > now && hold.owner !== owner) return;
    this.hold(key, { state: "done", until: now + ttlMs, owner }, now);
  }

  release(key: string, owner?: string): void {
    const hold = this.held.get(key);
    if (hold?.state === "in-progress" && hold.owner === owner) this.held.delete(key);
  }

  get size(): number {
    return this.held.size;
  }

  /** Re-inserted at the newest end, so the Map's order stays close to expiry order for trim. */
  private hold(key: string, hold: Hold, now: number): void {
    this.held.delete(key);
    this.held.set(key, hold);
    this.trim(now);
  }

  /** Drop expired ids from the oldest end, then the oldest live ones while over the bound. */
  private trim(now: number): void {
    for (const [key, hold] of this.held) {
      if (this.held.size <= this.maxEntries && hold.until > now) break;
      this.held.delete(key);
    }
  }
}
