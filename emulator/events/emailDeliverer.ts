/**
 * Email delivery (the queue itself is deliveryQueue.ts's): an attempt sends the stored, already rendered message
 * with nodemailer through a real SMTP conversation to the emulator's mail sink. Accepted (2xx) counts as delivered;
 * a temporary failure (4xx, a dropped connection, a timeout) is retried with the same backoff and bound as webhooks;
 * a permanent refusal (5xx) fails at once, as a mail server's sender does. The Message-ID is fixed per email, so a
 * message kept by the sink but answered with an error, then sent again, arrives twice under one Message-ID.
 */
import { createTransport, type SendMailOptions, type Transporter } from "nodemailer";
import type { EmailRecipient } from "../../contract/emailTemplates";
import { EmailFormat, EmailPriority } from "../../contract/emailTemplates";
import type { SmtpSink } from "../mail/smtpSink";
import type { EmailAttempt, EmailDeliveryRow, EmailDeliveryStore } from "../store/emailDeliveryStore";
import { DeliveryQueue, type DeliveryOptions, type SendOutcome } from "./deliveryQueue";

const PRIORITY_NAME = { [EmailPriority.HIGH]: "high", [EmailPriority.NORMAL]: "normal", [EmailPriority.LOW]: "low" } as const;
const MESSAGE_ID_HOST = "svc-emulator.localhost";

export class EmailDeliverer extends DeliveryQueue<EmailAttempt, EmailDeliveryRow> {
  private transport: Promise<Transporter> | undefined;

  constructor(
    store: EmailDeliveryStore,
    private readonly sink: SmtpSink,
    now: () => number,
    options: Partial<DeliveryOptions> = {},
    log?: (line: string) => void,
  ) {
    super(store, now, options, log);
  }

  protected async send(row: EmailDeliveryRow): Promise<SendOutcome<EmailAttempt>> {
    try {
      const info = await (await this.transporter()).sendMail(toMail(row));
      const responseCode = replyCode(info.response) ?? 250;
      return { recorded: { responseCode, response: String(info.response ?? "") }, answered: true, delivered: true, summary: responseCode };
    } catch (err) {
      const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
      const error = e.code ?? "ESEND";
      return {
        recorded: { ...(e.responseCode !== undefined ? { responseCode: e.responseCode } : {}), ...(e.response ? { response: e.response } : {}), error },
        answered: e.responseCode !== undefined,
        delivered: false,
        permanent: e.responseCode !== undefined && e.responseCode >= 500,
        summary: e.responseCode ?? error,
      };
    }
  }

  protected describe(row: EmailDeliveryRow): string {
    const to = row.message.to.map((r) => r.email).join(", ");
    return `email ${row.id} (template ${row.templateId}, job ${row.jobId}) to ${to} "${row.message.subject}"`;
  }

  protected override onDelivered(row: EmailDeliveryRow): void {
    row.messageId = messageIdOf(row);
  }

  protected override async release(): Promise<void> {
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
