/**
 * A shared ReplayStore on PostgreSQL, for receivers on several hosts behind one URL. Each call is one statement on
 * one table (postgresReplaySchema): a claim is an INSERT ... ON CONFLICT DO UPDATE whose update applies only when
 * the hold has lapsed, so of concurrent claims from any number of processes exactly one is `claimed`; leases and
 * the replay window are timestamps of the database's clock (one clock for every receiver, whatever their hosts'
 * clocks say); complete and release count only for the claim's owner. Old ids are deleted in bounded batches along
 * the expiry index, at most once per purgeEveryMs and never awaited by a delivery.
 *
 * `pg` is an optional peer dependency of pulumi-svc, loaded when a store is made (receivers on the memory or SQLite
 * store never load it). Nothing of its types is part of this module's declarations.
 */
import { REPLAY_DEFAULTS, type ClaimResult, type ReplayStore, type ReplayStoreOwnership, unownedClaimOwner } from "./replayStore";

export interface PostgresReplayStoreOptions extends ReplayStoreOwnership {
  /** postgres://user@host:port/database?... (a password in it, or in PGPASSWORD; it is never printed). */
  connectionString: string;
  /** The table, optionally schema-qualified (`app.webhook_replay`); default `webhook_replay`. Lower-case letters, digits and `_`. */
  table?: string;
  /** Make the table and its index when the table is missing (default true); false when they are made by hand. */
  createTable?: boolean;
  /** The most connections this store opens (its pool's size); default 4. */
  maxConnections?: number;
  /** How long a call waits for a connection, and for its statement, before it fails; default 5000 ms. */
  timeoutMs?: number;
  /** How often expired ids are deleted (after a claim, in the background); default 60 s. */
  purgeEveryMs?: number;
  /** The most ids one purge deletes; default 1000 (a purge that hit it runs again at the next claim). */
  purgeBatch?: number;
  /** Told about failures nobody awaits (a background purge, a connection the server dropped while idle). */
  onError?: (error: unknown) => void;
  /** How its connections are named in pg_stat_activity; default `pulumi-svc webhook receiver`. */
  applicationName?: string;
}

/** The part of pg's Pool used here (pg ^8). */
interface Pool {
  query(
    query: string | { name: string; text: string; values: unknown[] },
    values?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}(\.[a-z_][a-z0-9_]{0,62})?$/;

/**
 * The table and its index, as the store creates them (and as you may create them by hand, e.g. in a migration).
 * `expires_at` is the lease's end while in progress and the window's end once done; the index on it lets the purge
 * find old ids without reading the table.
 */
export function postgresReplaySchema(table = "webhook_replay"): string {
  const name = checkTable(table);
  const indexName = `${name.split(".").at(-1)}_expires_at`;
  return [
    `CREATE TABLE IF NOT EXISTS ${name} (`,
    "  key text PRIMARY KEY,",
    "  state text NOT NULL CHECK (state IN ('in-progress', 'done')),",
    "  owner text,",
    "  expires_at timestamptz NOT NULL",
    ");",
    `CREATE INDEX IF NOT EXISTS ${indexName} ON ${name} (expires_at);`,
  ].join("\n");
}

function checkTable(table: unknown): string {
  if (typeof table !== "string" || !IDENTIFIER.test(table)) {
    throw new TypeError('PostgresReplayStore: "table" must be a lower-case SQL name, optionally schema-qualified (letters, digits, _)');
  }
  return table;
}

function positive(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) throw new TypeError(`PostgresReplayStore: "${name}" must be a positive integer`);
  return value;
}

function loadPg(): { Pool: new (config: Record<string, unknown>) => Pool } {
  try {
    return require("pg");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    throw new Error("PostgresReplayStore needs the optional package pg, which is not installed: npm install pg@8");
  }
}

type Statement = "claim" | "complete" | "release" | "purge";

/**
 * The statements, one round trip each. claim: the upsert takes the key when it is absent or its hold lapsed;
 * otherwise the row as it was (read in the same statement) says done or in progress. That read sees the statement's
 * snapshot, not what a concurrent claim committed meanwhile: a row it does not see, or sees lapsed (so the upsert
 * lost to a concurrent claim), is "in-progress", never "duplicate" (a 409 the platform retries, not a 200 for an
 * event whose claim may still fail). complete: done when this owner holds the key, or nobody does any more (absent, or
 * the hold lapsed). release: only this owner's claim in progress. purge: a bounded batch along the expiry index,
 * skipping rows a claim holds locked.
 */
function statementsFor(t: string): Record<Statement, string> {
  return {
    claim: `WITH claimed AS (
         INSERT INTO ${t} AS r (key, state, owner, expires_at)
         VALUES ($1, 'in-progress', $2, now() + $3::float8 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET state = 'in-progress', owner = excluded.owner, expires_at = excluded.expires_at
         WHERE r.expires_at <= now()
         RETURNING 'claimed'::text AS result
       )
       SELECT result FROM claimed
       UNION ALL
       SELECT CASE WHEN state = 'done' AND expires_at > now() THEN 'duplicate' ELSE 'in-progress' END FROM ${t}
       WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM claimed)`,
    complete: `INSERT INTO ${t} AS r (key, state, owner, expires_at)
       VALUES ($1, 'done', $2, now() + $3::float8 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET state = 'done', owner = excluded.owner, expires_at = excluded.expires_at
       WHERE r.owner IS NOT DISTINCT FROM excluded.owner OR r.expires_at <= now()`,
    release: `DELETE FROM ${t} WHERE key = $1 AND state = 'in-progress' AND owner IS NOT DISTINCT FROM $2`,
    purge: `DELETE FROM ${t} WHERE key IN (
         SELECT key FROM ${t} WHERE expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
  };
}

export class PostgresReplayStore implements ReplayStore {
  // Private fields (#): util.inspect and JSON.stringify never show them, and the pool's options hold the password.
  readonly #pool: Pool;
  readonly #table: string;
  readonly #statements: Record<Statement, string>;
  readonly #createTable: boolean;
  readonly #purgeEveryMs: number;
  readonly #purgeBatch: number;
  readonly #onError: (error: unknown) => void;
  /** The owner recorded for calls without one (this instance's own, unless shared). */
  readonly #unowned: string | null;
  #ready: Promise<void> | undefined;
  #lastPurge = Number.NEGATIVE_INFINITY;
  #purging: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: PostgresReplayStoreOptions) {
    if (!options || typeof options.connectionString !== "string" || !/^postgres(ql)?:\/\//.test(options.connectionString)) {
      throw new TypeError('PostgresReplayStore: "connectionString" must be a postgres:// URL');
    }
    this.#table = checkTable(options.table ?? "webhook_replay");
    this.#statements = statementsFor(this.#table);
    this.#createTable = options.createTable ?? true;
    const maxConnections = positive(options.maxConnections, "maxConnections", 4);
    const timeoutMs = positive(options.timeoutMs, "timeoutMs", 5000);
    this.#purgeEveryMs = positive(options.purgeEveryMs, "purgeEveryMs", 60_000);
    this.#purgeBatch = positive(options.purgeBatch, "purgeBatch", 1000);
    this.#unowned = unownedClaimOwner(options, "PostgresReplayStore");
    const applicationName = options.applicationName ?? "pulumi-svc webhook receiver";
    if (typeof applicationName !== "string" || applicationName.length > 63) {
      throw new TypeError('PostgresReplayStore: "applicationName" must be a string of at most 63 characters');
    }
    if (options.onError !== undefined && typeof options.onError !== "function") throw new TypeError('PostgresReplayStore: "onError" must be a function');
    const onError = options.onError;
    this.#onError = (error) => {
      try {
        onError?.(error);
      } catch {
        // A reporter that throws changes nothing.
      }
    };
    const { Pool } = loadPg();
    this.#pool = new Pool({
      connectionString: options.connectionString,
      max: maxConnections,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      statement_timeout: timeoutMs,
      application_name: applicationName,
    });
    // An idle connection the server closed is an 'error' event; unheard, it would end the process.
    this.#pool.on("error", this.#onError);
  }

  async claim(key: string, leaseMs: number = REPLAY_DEFAULTS.leaseMs, owner?: string): Promise<ClaimResult> {
    await this.#prepared();
    const { rows } = await this.#run("claim", [key, owner ?? this.#unowned, leaseMs]);
    this.#purgeNowAndThen();
    const result = rows[0]?.result;
    return result === "claimed" || result === "duplicate" ? result : "in-progress";
  }

  async complete(key: string, ttlMs: number = REPLAY_DEFAULTS.windowMs, owner?: string): Promise<void> {
    await this.#prepared();
    await this.#run("complete", [key, owner ?? this.#unowned, ttlMs]);
  }

  async release(key: string, owner?: string): Promise<void> {
    await this.#prepared();
    await this.#run("release", [key, owner ?? this.#unowned]);
  }

  /** Waits for a purge in flight, then ends the pool (its connections close). Calls after it fail. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#purging;
      await this.#pool.end();
    })();
    return this.#closing;
  }

  /** A named statement: PostgreSQL parses and plans it once per connection, not at every call. */
  #run(statement: Statement, values: unknown[]) {
    return this.#pool.query({ name: `svc-replay-${statement}:${this.#table}`, text: this.#statements[statement], values });
  }

  /** The table, made on first use when missing; a failure is retried at the next call. */
  #prepared(): Promise<void> {
    if (this.#closing) return Promise.reject(new Error("PostgresReplayStore: the store is closed"));
    this.#ready ??= this.#makeTable().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #makeTable(): Promise<void> {
    if (!this.#createTable) return;
    const { rows } = await this.#pool.query("SELECT to_regclass($1) IS NOT NULL AS present", [this.#table]);
    if (rows[0]?.present === true) return;
    // Receivers that start together would race on CREATE TABLE IF NOT EXISTS (it can fail with a unique violation
    // in the catalog): a transaction-scoped advisory lock makes them take turns.
    await this.#pool.query(`BEGIN; SELECT pg_advisory_xact_lock(hashtext('pulumi-svc ${this.#table}')); ${postgresReplaySchema(this.#table)} COMMIT;`);
  }

  /** At most once per purgeEveryMs, in the background: a bounded delete along the expiry index. */
  #purgeNowAndThen(): void {
    const now = performance.now();
    if (this.#purging || this.#closing || now - this.#lastPurge < this.#purgeEveryMs) return;
    this.#lastPurge = now;
    this.#purging = this.#run("purge", [this.#purgeBatch])
      .then(({ rowCount }) => {
        // A full batch means more are waiting: the next claim purges again.
        if ((rowCount ?? 0) >= this.#purgeBatch) this.#lastPurge = Number.NEGATIVE_INFINITY;
      }, this.#onError)
      .finally(() => {
        this.#purging = undefined;
      });
  }
}
