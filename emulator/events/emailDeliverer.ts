/**
 * Email delivery: each email is a row of the email delivery log (durable, so a restart resumes pending ones). An
 * attempt sends the stored, already rendered message with nodemailer through a real SMTP conversation to the
 * emulator's mail sink. Accepted (2xx) counts as delivered; a temporary failure (4xx, a dropped connection, a
 * timeout) is retried with the same backoff and bound as webhooks (DeliveryOptions); a permanent refusal (5xx)
 * fails at once, as a mail server's sender does. The Message-ID is fixed per email, so a message kept by the sink
 * but answered with an error, then sent again, arrives twice under one Message-ID.
 */
import { JobScheduler } from "./jobScheduler";
import { createTransport, type SendMailOptions, type Transporter } from "nodemailer";
import type { EmailRecipient } from "../../contract/emailTemplates";
import { EmailFormat, EmailPriority } from "../../contract/emailTemplates";
import type { SmtpSink } from "../mail/smtpSink";
import type { EmailAttempt, EmailDeliveryRow, EmailDeliveryStore } from "../store/emailDeliveryStore";
import { DEFAULT_DELIVERY, type DeliveryOptions } from "./deliverer";

const PRIORITY_NAME = { [EmailPriority.HIGH]: "high", [EmailPriority.NORMAL]: "normal", [EmailPriority.LOW]: "low" } as const;
const MESSAGE_ID_HOST = "svc-emulator.localhost";

export class EmailDeliverer {
  private readonly options: DeliveryOptions;
  private transport: Promise<Transporter> | undefined;
  private readonly jobs: JobScheduler;

  constructor(
    private readonly store: EmailDeliveryStore,
    private readonly sink: SmtpSink,
    private readonly now: () => number,
    options: Partial<DeliveryOptions> = {},
    private readonly log: (line: string) => void = () => {},
  ) {
    this.options = { ...DEFAULT_DELIVERY, ...options };
    this.jobs = new JobScheduler(now, (id) => this.attempt(id));
  }

  /** Schedules an email's next attempt (or resumes a pending one after a restart). */
  schedule(row: EmailDeliveryRow): void {
    if (row.state === "pending") this.jobs.schedule(row.id, row.nextAttemptAt);
  }

  resumePending(): void {
    for (const row of this.store.list({ state: "pending" })) this.schedule(row);
  }

  /** Resolves when no email is scheduled or being sent. */
  idle(): Promise<void> {
    return this.jobs.idle();
  }

  async close(): Promise<void> {
    await this.jobs.close();
    if (this.transport) (await this.transport).close();
  }

  /** One SMTP transport to the sink, made when the first email goes out (the sink starts then if it has not). */
  private transporter(): Promise<Transporter> {
    this.transport ??= this.sink.start().then((a) =>
      createTransport({
        host: a.address,
        port: a.port,
        secure: false,
        ignoreTLS: true,
        connectionTimeout: this.options.timeoutMs,
        greetingTimeout: this.options.timeoutMs,
        socketTimeout: this.options.timeoutMs,
        name: MESSAGE_ID_HOST,
      }),
    );
    return this.transport;
  }

  private async attempt(id: number): Promise<void> {
    const row = this.store.get(id);
    if (row?.state !== "pending" || this.jobs.closed) return;
    const started = this.now();
    let outcome: Omit<EmailAttempt, "atMs" | "durationMs">;
    let permanent = false;
    try {
      const info = await (await this.transporter()).sendMail(toMail(row));
      outcome = { responseCode: replyCode(info.response) ?? 250, response: String(info.response ?? "") };
    } catch (err) {
      const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
      outcome = {
        ...(e.responseCode !== undefined ? { responseCode: e.responseCode } : {}),
        ...(e.response ? { response: e.response } : {}),
        error: e.code ?? "ESEND",
      };
      permanent = e.responseCode !== undefined && e.responseCode >= 500;
    }
    if (this.jobs.closed && outcome.responseCode === undefined) return; // shutting down: leave it pending for the next start
    const at = this.now();
    row.attempts.push({ atMs: started, durationMs: at - started, ...outcome });
    row.updatedAt = at;
    if (outcome.error === undefined) {
      row.state = "delivered";
      row.messageId = messageIdOf(row);
    } else if (permanent || row.attempts.length >= this.options.maxAttempts) {
      row.state = "failed";
    } else {
      const { initialDelayMs, backoffMultiplier, maxDelayMs } = this.options;
      row.nextAttemptAt = at + Math.min(maxDelayMs, initialDelayMs * backoffMultiplier ** (row.attempts.length - 1));
    }
    this.store.update(row);
    const to = row.message.to.map((r) => r.email).join(", ");
    this.log(
      `email ${row.id} (template ${row.templateId}, job ${row.jobId}) to ${to} "${row.message.subject}" attempt ${row.attempts.length}: ${outcome.responseCode ?? outcome.error} -> ${row.state}`,
    );
    if (row.state === "pending") this.schedule(row);
  }
}

function toMail(row: EmailDeliveryRow): SendMailOptions {
  const m = row.message;
  const addresses = (list: EmailRecipient[]) => list.map((r) => (r.name ? { name: r.name, address: r.email } : r.email));
  return {
    from: m.from.name ? { name: m.from.name, address: m.from.email } : m.from.email,
    to: addresses(m.to),
    ...(m.cc.length ? { cc: addresses(m.cc) } : {}),
    ...(m.bcc.length ? { bcc: addresses(m.bcc) } : {}),
    ...(m.replyTo.length ? { replyTo: addresses(m.replyTo) } : {}),
    subject: m.subject,
    ...(m.format === EmailFormat.HTML ? { html: m.body } : { text: m.body }),
    priority: PRIORITY_NAME[m.priority],
    messageId: messageIdOf(row),
    headers: { "X-Svc-Template-Id": row.templateId, "X-Svc-Notification-Job-Id": String(row.jobId) },
  };
}

function messageIdOf(row: EmailDeliveryRow): string {
  return `<job-${row.jobId}.template-${row.templateId}@${MESSAGE_ID_HOST}>`;
}

function replyCode(response: unknown): number | undefined {
  const m = /^(\d{3})/.exec(String(response ?? ""));
  return m ? Number(m[1]) : undefined;
}
