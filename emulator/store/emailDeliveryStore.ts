/**
 * The email delivery log, durable like the webhook one: one row per email (one per active email template whose
 * event fired), holding the rendered message (fixed when the job is made, so every attempt sends the same mail),
 * its state and every attempt's SMTP answer. Its own table in the emulator's SQLite file.
 */
import type { RenderedEmail } from "../events/emailRender";
import type { DatabaseSync } from "./quietSqlite";
import { deliveryFilter } from "./store";

export interface EmailAttempt {
  /** Unix milliseconds. */
  atMs: number;
  durationMs: number;
  /** The SMTP reply code of the final answer (250 when accepted). */
  responseCode?: number;
  /** The SMTP reply text, or the connection error's code. */
  response?: string;
  error?: string;
}

export type EmailState = "pending" | "delivered" | "failed";

export interface EmailDeliveryRow {
  id: number;
  partnerId: number;
  templateId: string;
  jobId: number;
  event: string;
  message: RenderedEmail;
  state: EmailState;
  attempts: EmailAttempt[];
  /** Message-ID of the accepted message. */
  messageId?: string;
  nextAttemptAt: number;
  createdAt: number;
  updatedAt: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS email_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT, partner_id INTEGER NOT NULL, template_id TEXT NOT NULL,
  job_id INTEGER NOT NULL, event TEXT NOT NULL, message TEXT NOT NULL, state TEXT NOT NULL, attempts TEXT NOT NULL,
  message_id TEXT, next_attempt_at INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS email_deliveries_template ON email_deliveries (template_id);
`;

type Row = Record<string, unknown>;

export class EmailDeliveryStore {
  constructor(private readonly db: DatabaseSync) {
    db.exec(SCHEMA);
  }

  insert(d: Omit<EmailDeliveryRow, "id">): number {
    const row = this.db
      .prepare(
        `INSERT INTO email_deliveries (partner_id, template_id, job_id, event, message, state, attempts, message_id, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(
        d.partnerId,
        d.templateId,
        d.jobId,
        d.event,
        JSON.stringify(d.message),
        d.state,
        JSON.stringify(d.attempts),
        d.messageId ?? null,
        d.nextAttemptAt,
        d.createdAt,
        d.updatedAt,
      ) as Row;
    return Number(row.id);
  }

  update(d: EmailDeliveryRow): void {
    this.db
      .prepare("UPDATE email_deliveries SET state = ?, attempts = ?, message_id = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?")
      .run(d.state, JSON.stringify(d.attempts), d.messageId ?? null, d.nextAttemptAt, d.updatedAt, d.id);
  }

  get(id: number): EmailDeliveryRow | undefined {
    const row = this.db.prepare("SELECT * FROM email_deliveries WHERE id = ?").get(id) as Row | undefined;
    return row ? toRow(row) : undefined;
  }

  list(filter: { templateId?: string; partnerId?: number; state?: string } = {}): EmailDeliveryRow[] {
    const { where, args } = deliveryFilter(filter);
    const sql = `SELECT * FROM email_deliveries ${where} ORDER BY id`;
    return (this.db.prepare(sql).all(...args) as Row[]).map(toRow);
  }
}

function toRow(r: Row): EmailDeliveryRow {
  return {
    id: Number(r.id),
    partnerId: Number(r.partner_id),
    templateId: String(r.template_id),
    jobId: Number(r.job_id),
    event: String(r.event),
    message: JSON.parse(String(r.message)) as RenderedEmail,
    state: String(r.state) as EmailState,
    attempts: JSON.parse(String(r.attempts)) as EmailAttempt[],
    ...(r.message_id !== null && r.message_id !== undefined ? { messageId: String(r.message_id) } : {}),
    nextAttemptAt: Number(r.next_attempt_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}
