/**
 * The control API's email part (under /_emulator): the email delivery log (what the emulator sent for each email
 * template: recipients, subject, rendered body, state, every SMTP answer), a wait for pending emails, and the mail
 * sink's mailbox (what the SMTP server received, decoded).
 */
import { jobHead, logFilterOf, waitUntilIdle } from "./deliveryLogQuery";
import { Hono } from "hono";
import type { EmulatorContext } from "../context/emulatorContext";
import type { EmailDeliveryRow } from "../store/emailDeliveryStore";

/** An email of the delivery log as the control API shows it. */
export function emailView(d: EmailDeliveryRow): Record<string, unknown> {
  const m = d.message;
  return {
    ...jobHead(d),
    state: d.state,
    delivered: d.state === "delivered",
    from: m.from,
    to: m.to,
    cc: m.cc,
    bcc: m.bcc,
    replyTo: m.replyTo,
    subject: m.subject,
    body: m.body,
    format: m.format,
    priority: m.priority,
    parameters: m.parameters,
    ...(d.messageId ? { messageId: d.messageId } : {}),
    attempts: d.attempts,
    createdAtMs: d.createdAt,
    updatedAtMs: d.updatedAt,
  };
}

export function createEmailControlRoutes(ctx: EmulatorContext): Hono {
  const app = new Hono();

  app.get("/emails", (c) => {
    return c.json({ emails: ctx.mail.log.list(logFilterOf(c.req.query())).map(emailView) });
  });

  /** Waits until no email is scheduled or being sent (bounded by timeoutMs, default 10 s). */
  app.post("/emails/wait", async (c) => {
    const idle = await waitUntilIdle(() => ctx.mail.deliverer.idle(), c.req.query("timeoutMs"));
    return c.json({ idle, pending: ctx.mail.log.list({ state: "pending" }).length });
  });

  /** What the mail sink received (newest last); `?to=` keeps messages whose envelope names that recipient. */
  app.get("/mailbox", async (c) => {
    const to = c.req.query("to")?.toLowerCase();
    const messages = ctx.mail.sink.list().filter((m) => to === undefined || m.envelope.to.some((r) => r.toLowerCase() === to));
    return c.json({ smtpUrl: await ctx.mail.sink.url(), messages });
  });

  app.delete("/mailbox", (c) => {
    ctx.mail.sink.clear();
    return c.json({ messages: [] });
  });

  return app;
}
