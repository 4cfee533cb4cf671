/**
 * The email delivery log, durable like the webhook one: one row per email (one per active email template whose
 * event fired), holding the rendered message (fixed when the job is made, so every attempt sends the same mail),
 * its state and every attempt's SMTP answer. Its own table in the emulator's SQLite file.
 */
import type { EmailFormat, EmailPriority, EmailRecipient } from "../../contract/emailTemplates";
import { type AttemptTimes, type DeliveryColumns, type DeliveryJob, type DeliveryState, DeliveryTable, readJob } from "./deliveryTable";
import type { DatabaseSync } from "./quietSqlite";
import { deliveryFilter } from "./store";

/** An email as rendered for one event (events/emailRender.ts): fixed when the job is made, sent as is by every attempt. */
export interface RenderedEmail {
  from: { email: string; name?: string };
  to: EmailRecipient[];
  cc: EmailRecipient[];
  bcc: EmailRecipient[];
  replyTo: EmailRecipient[];
  subject: string;
  body: string;
  format: EmailFormat;
  priority: EmailPriority;
  /** The content parameters' values for this event. */
  parameters: Record<string, string>;
}

export interface EmailAttempt extends AttemptTimes {
  /** The SMTP reply code of the final answer (250 when accepted). */
  responseCode?: number;
  /** The SMTP reply text, or the connection error's code. */
  response?: string;
}

export type EmailState = DeliveryState;

/** An email job: the rendered message sent to the mail sink. */
export interface EmailDeliveryRow extends DeliveryJob<EmailAttempt> {
  message: RenderedEmail;
  /** Message-ID of the accepted message. */
  messageId?: string;
}

/** The email log's own columns (the bookkeeping ones are deliveryTable.ts's). */
const EMAIL_COLUMNS: DeliveryColumns<EmailDeliveryRow> = {
  inserted: { message: (d) => JSON.stringify(d.message), message_id: (d) => d.messageId ?? null },
  updated: { message_id: (d) => d.messageId ?? null },
  read: (r) => ({
    message: JSON.parse(String(r.message)) as RenderedEmail,
    ...(r.message_id !== null && r.message_id !== undefined ? { messageId: String(r.message_id) } : {}),
  }),
};

const SCHEMA = `
CREATE TABLE IF NOT EXISTS email_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT, partner_id INTEGER NOT NULL, template_id TEXT NOT NULL,
  job_id INTEGER NOT NULL, event TEXT NOT NULL, message TEXT NOT NULL, state TEXT NOT NULL, attempts TEXT NOT NULL,
  message_id TEXT, next_attempt_at INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS email_deliveries_template ON email_deliveries (template_id);
`;

type Row = Record<string, unknown>;

/** The email log: insert, update and get are the shared table's; list is its own. */
export class EmailDeliveryStore extends DeliveryTable<EmailDeliveryRow> {
  constructor(db: DatabaseSync) {
    super(db, "email_deliveries", EMAIL_COLUMNS);
    db.exec(SCHEMA);
  }

  list(filter: { templateId?: string; partnerId?: number; state?: string } = {}): EmailDeliveryRow[] {
    const { where, args } = deliveryFilter(filter);
    const sql = `SELECT * FROM email_deliveries ${where} ORDER BY id`;
    return (this.db.prepare(sql).all(...args) as Row[]).map(toRow);
  }
}

function toRow(r: Row): EmailDeliveryRow {
  return readJob(EMAIL_COLUMNS, r);
}
