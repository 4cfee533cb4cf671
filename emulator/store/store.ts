/**
 * Durable state of the emulator: one SQLite file (or :memory:), readable by its owner only (privateDatabaseFile.ts).
 * Every acknowledged write is committed before the API answers (WAL journal, synchronous=FULL), so a kill -9 loses
 * nothing acknowledged.
 * Objects (app tokens, templates, entries) are JSON documents keyed by (kind, id). Listings filter, count and page
 * in SQL (pageDocs): an account may hold thousands of objects, and a page of 500 must not parse them all.
 */
import { type AttemptTimes, type DeliveryColumns, type DeliveryJob, DeliveryTable, readJob } from "./deliveryTable";
import { preparePrivateDatabaseFile } from "./privateDatabaseFile";
import { DatabaseSync } from "./quietSqlite";

export type DocKind = "appToken" | "template" | "entry";

export interface PartnerRow {
  id: number;
  adminSecret: string;
  createdAt: number;
}

export interface DeliveryAttempt extends AttemptTimes {
  /** The receiver's HTTP status, when it answered. */
  status?: number;
}

/** A webhook job: the Notification body POSTed to the template's URL. */
export interface DeliveryRow extends DeliveryJob<DeliveryAttempt> {
  url: string;
  payload: string;
  /** Value of the signature header, fixed when the job is created. */
  signature: string;
}

/** The webhook log's own columns (the bookkeeping ones are deliveryTable.ts's). */
const WEBHOOK_COLUMNS: DeliveryColumns<DeliveryRow> = {
  inserted: { url: (d) => d.url, payload: (d) => d.payload, signature: (d) => d.signature },
  updated: {},
  read: (r) => ({ url: String(r.url), payload: String(r.payload), signature: String(r.signature) }),
};

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS partners (id INTEGER PRIMARY KEY, admin_secret TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
  kind TEXT NOT NULL, id TEXT NOT NULL, partner_id INTEGER NOT NULL, data TEXT NOT NULL,
  PRIMARY KEY (kind, id));
CREATE INDEX IF NOT EXISTS docs_partner ON docs (kind, partner_id);
-- Listings filter on the status (pageDocs compares fields as text): counted and paged from the index alone.
CREATE INDEX IF NOT EXISTS docs_status ON docs (kind, partner_id, CAST(json_extract(data, '$.status') AS TEXT));
CREATE TABLE IF NOT EXISTS sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ended_sessions (ks_hash TEXT PRIMARY KEY, expiry INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT, partner_id INTEGER NOT NULL, template_id TEXT NOT NULL,
  job_id INTEGER NOT NULL, event TEXT NOT NULL, url TEXT NOT NULL, payload TEXT NOT NULL, signature TEXT NOT NULL,
  state TEXT NOT NULL, attempts TEXT NOT NULL, next_attempt_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS deliveries_template ON deliveries (template_id);
`;

type Row = Record<string, unknown>;

/** One condition on a document's field: its value as text equals (or, with `not`, differs from) `value`. */
export interface DocCondition {
  /** A top-level field of the document (a fixed name from the code, never from a request). */
  field: string;
  value: string;
  not?: boolean;
}

export interface DocPageQuery {
  where: DocCondition[];
  /** Creation order (the default), or numeric id descending (templates). */
  order?: "created" | "idDescending";
  limit: number;
  offset: number;
}

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9]*$/;

export class Store {
  readonly db: DatabaseSync;
  private readonly deliveries: DeliveryTable<DeliveryRow>;

  constructor(file: string = ":memory:") {
    if (file !== ":memory:") preparePrivateDatabaseFile(file);
    this.db = new DatabaseSync(file);
    if (file !== ":memory:") this.db.exec("PRAGMA journal_mode = WAL");
    this.db.exec("PRAGMA synchronous = FULL");
    this.db.exec("PRAGMA busy_timeout = 5000");
    this.db.exec(SCHEMA);
    this.deliveries = new DeliveryTable(this.db, "deliveries", WEBHOOK_COLUMNS);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /** Runs fn in one transaction: all of its writes commit together or none do. */
  transaction<T>(fn: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn();
      this.db.exec("COMMIT");
      return result;
    } catch (err) {
      this.db.exec("ROLLBACK");
      throw err;
    }
  }

  // ---- meta and partners ----------------------------------------------------------------------

  getMeta(key: string): string | undefined {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as Row | undefined;
    return row ? String(row.value) : undefined;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
  }

  getPartner(id: number): PartnerRow | undefined {
    const row = this.db.prepare("SELECT * FROM partners WHERE id = ?").get(id) as Row | undefined;
    return row ? { id: Number(row.id), adminSecret: String(row.admin_secret), createdAt: Number(row.created_at) } : undefined;
  }

  upsertPartner(p: PartnerRow): void {
    this.db
      .prepare("INSERT INTO partners (id, admin_secret, created_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET admin_secret = excluded.admin_secret")
      .run(p.id, p.adminSecret, p.createdAt);
  }

  // ---- documents ------------------------------------------------------------------------------

  putDoc<T extends object>(kind: DocKind, id: string, partnerId: number, doc: T): void {
    this.db
      .prepare("INSERT INTO docs (kind, id, partner_id, data) VALUES (?, ?, ?, ?) ON CONFLICT(kind, id) DO UPDATE SET data = excluded.data")
      .run(kind, id, partnerId, JSON.stringify(doc));
  }

  getDoc<T>(kind: DocKind, id: string): T | undefined {
    const row = this.db.prepare("SELECT data FROM docs WHERE kind = ? AND id = ?").get(kind, id) as Row | undefined;
    return row ? (JSON.parse(String(row.data)) as T) : undefined;
  }

  listDocs<T>(kind: DocKind, partnerId: number): T[] {
    const rows = this.db.prepare("SELECT data FROM docs WHERE kind = ? AND partner_id = ? ORDER BY rowid").all(kind, partnerId) as Row[];
    return rows.map((r) => JSON.parse(String(r.data)) as T);
  }

  /**
   * One page of an account's documents of a kind that meet every condition, and how many meet them in all. A field's
   * value is compared as text (a number 2 matches "2"); a missing field equals nothing and differs from everything.
   */
  pageDocs<T>(kind: DocKind, partnerId: number, query: DocPageQuery): { docs: T[]; total: number } {
    const conditions = ["kind = ?", "partner_id = ?"];
    const args: (string | number)[] = [kind, partnerId];
    for (const c of query.where) {
      if (!FIELD_NAME.test(c.field)) throw new Error(`not a document field: ${c.field}`);
      const text = `CAST(json_extract(data, '$.${c.field}') AS TEXT)`;
      conditions.push(c.not ? `(${text} IS NULL OR ${text} != ?)` : `${text} = ?`);
      args.push(c.value);
    }
    const where = conditions.join(" AND ");
    const total = Number((this.db.prepare(`SELECT COUNT(*) AS n FROM docs WHERE ${where}`).get(...args) as Row).n);
    const order = query.order === "idDescending" ? "CAST(id AS INTEGER) DESC" : "rowid";
    const rows = this.db.prepare(`SELECT data FROM docs WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...args, query.limit, query.offset) as Row[];
    return { docs: rows.map((r) => JSON.parse(String(r.data)) as T), total };
  }

  /** Next value of a named counter (durable, so ids never repeat across restarts). */
  nextSeq(name: string, start: number): number {
    const row = this.db
      .prepare("INSERT INTO sequences (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value")
      .get(name, start) as Row;
    return Number(row.value);
  }

  // ---- ended sessions -------------------------------------------------------------------------

  endSession(ksHash: string, expiry: number): void {
    this.db.prepare("INSERT OR IGNORE INTO ended_sessions (ks_hash, expiry) VALUES (?, ?)").run(ksHash, expiry);
  }

  isSessionEnded(ksHash: string): boolean {
    return this.db.prepare("SELECT 1 AS x FROM ended_sessions WHERE ks_hash = ?").get(ksHash) !== undefined;
  }

  // ---- deliveries -----------------------------------------------------------------------------

  insertDelivery(d: Omit<DeliveryRow, "id">): number {
    return this.deliveries.insert(d);
  }

  updateDelivery(d: DeliveryRow): void {
    this.deliveries.update(d);
  }

  getDelivery(id: number): DeliveryRow | undefined {
    return this.deliveries.get(id);
  }

  listDeliveries(filter: { templateId?: string; partnerId?: number; state?: string } = {}): DeliveryRow[] {
    const { where, args } = deliveryFilter(filter);
    const sql = `SELECT * FROM deliveries ${where} ORDER BY id`;
    return (this.db.prepare(sql).all(...args) as Row[]).map(toDelivery);
  }
}

/** The WHERE clause of a delivery log's listing (webhooks and emails), with its arguments. */
export function deliveryFilter(filter: { templateId?: string; partnerId?: number; state?: string }): { where: string; args: (string | number)[] } {
  const conditions: string[] = [];
  const args: (string | number)[] = [];
  if (filter.templateId !== undefined) conditions.push("template_id = ?"), args.push(filter.templateId);
  if (filter.partnerId !== undefined) conditions.push("partner_id = ?"), args.push(filter.partnerId);
  if (filter.state !== undefined) conditions.push("state = ?"), args.push(filter.state);
  return { where: conditions.length ? `WHERE ${conditions.join(" AND ")}` : "", args };
}

function toDelivery(r: Row): DeliveryRow {
  return readJob(WEBHOOK_COLUMNS, r);
}
