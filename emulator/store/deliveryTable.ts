/**
 * One table of a delivery log (webhooks: `deliveries` in store.ts, emails: `email_deliveries` in
 * emailDeliveryStore.ts). Every job has the same bookkeeping columns (account, template, job id, event, state,
 * attempts, next attempt, times); a kind adds its own columns (what it sends), described by a DeliveryColumns.
 * Each kind keeps its own table so that state files written before the two shared this code still open.
 */
import type { DatabaseSync } from "./quietSqlite";

export type DeliveryState = "pending" | "delivered" | "failed";

/** What every attempt records, whatever it sent. */
export interface AttemptTimes {
  /** Unix milliseconds. */
  atMs: number;
  durationMs: number;
  error?: string;
}

/** What every delivery job holds, whatever it sends. */
export interface DeliveryJob<Attempt extends AttemptTimes = AttemptTimes> {
  id: number;
  partnerId: number;
  templateId: string;
  jobId: number;
  event: string;
  state: DeliveryState;
  attempts: Attempt[];
  nextAttemptAt: number;
  createdAt: number;
  updatedAt: number;
}

export type SqlValue = string | number | null;
export type SqlRow = Record<string, unknown>;

/** A kind's own columns: each one's value when a job is inserted (and, for `updated`, when it changes), and the read back. */
export interface DeliveryColumns<Job extends DeliveryJob> {
  inserted: Record<string, (job: Omit<Job, "id">) => SqlValue>;
  updated: Record<string, (job: Job) => SqlValue>;
  read(row: SqlRow): Omit<Job, keyof DeliveryJob>;
}

const BOOKKEEPING = {
  partner_id: (j: Omit<DeliveryJob, "id">) => j.partnerId,
  template_id: (j: Omit<DeliveryJob, "id">) => j.templateId,
  job_id: (j: Omit<DeliveryJob, "id">) => j.jobId,
  event: (j: Omit<DeliveryJob, "id">) => j.event,
};
const CHANGING = {
  state: (j: Omit<DeliveryJob, "id">) => j.state,
  attempts: (j: Omit<DeliveryJob, "id">) => JSON.stringify(j.attempts),
  next_attempt_at: (j: Omit<DeliveryJob, "id">) => j.nextAttemptAt,
  updated_at: (j: Omit<DeliveryJob, "id">) => j.updatedAt,
};

export class DeliveryTable<Job extends DeliveryJob> {
  constructor(
    protected readonly db: DatabaseSync,
    private readonly table: string,
    private readonly columns: DeliveryColumns<Job>,
  ) {}

  insert(job: Omit<Job, "id">): number {
    const values = { ...BOOKKEEPING, ...CHANGING, created_at: (j: Omit<DeliveryJob, "id">) => j.createdAt, ...this.columns.inserted };
    const names = Object.keys(values);
    const row = this.db
      .prepare(`INSERT INTO ${this.table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")}) RETURNING id`)
      .get(...Object.values(values).map((of) => (of as (j: Omit<Job, "id">) => SqlValue)(job))) as SqlRow;
    return Number(row.id);
  }

  update(job: Job): void {
    const values = { ...CHANGING, ...this.columns.updated };
    const assignments = Object.keys(values).map((name) => `${name} = ?`);
    this.db
      .prepare(`UPDATE ${this.table} SET ${assignments.join(", ")} WHERE id = ?`)
      .run(...Object.values(values).map((of) => (of as (j: Job) => SqlValue)(job)), job.id);
  }

  get(id: number): Job | undefined {
    const row = this.db.prepare(`SELECT * FROM ${this.table} WHERE id = ?`).get(id) as SqlRow | undefined;
    return row ? readJob(this.columns, row) : undefined;
  }
}

/** A table row as a job: the bookkeeping columns, then the kind's own. */
export function readJob<Job extends DeliveryJob>(columns: DeliveryColumns<Job>, r: SqlRow): Job {
  return {
    id: Number(r.id),
    partnerId: Number(r.partner_id),
    templateId: String(r.template_id),
    jobId: Number(r.job_id),
    event: String(r.event),
    state: String(r.state) as DeliveryState,
    attempts: JSON.parse(String(r.attempts)) as Job["attempts"],
    nextAttemptAt: Number(r.next_attempt_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    ...columns.read(r),
  } as Job;
}
