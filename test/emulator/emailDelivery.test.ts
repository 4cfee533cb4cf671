/**
 * Email delivery end to end on real sockets: an active email template's event renders the email, nodemailer sends
 * it over SMTP to the emulator's mail sink, and the control API shows both sides (the email log and the mailbox).
 */
import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { EmailDeliverer } from "../../emulator/events/emailDeliverer";
import type { SmtpSink } from "../../emulator/mail/smtpSink";
import { EmailDeliveryStore } from "../../emulator/store/emailDeliveryStore";
import { Store } from "../../emulator/store/store";
import { editors, emailFields } from "./emailHelpers";
import { ADMIN_SECRET, httpCall, PARTNER_ID } from "./helpers";

const SVC = "eventnotification_eventnotificationtemplate";

const json = async (url: string, method = "GET", body?: unknown): Promise<any> => {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await request(url, {
    method: method as "GET",
    ...(body !== undefined ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
  });
  return res.body.json();
};

describe("email delivery (real SMTP)", () => {
  let emu: RunningEmulator;
  let ks: string;
  beforeEach(async () => {
    emu = await startEmulator({
      partnerId: PARTNER_ID,
      adminSecret: ADMIN_SECRET,
      quiet: true,
      smtp: { port: 0 },
      delivery: { initialDelayMs: 20, maxAttempts: 3, timeoutMs: 2000 },
    });
    ks = await httpCall(emu.baseUrl, "session", "start", { secret: ADMIN_SECRET, partnerId: PARTNER_ID, type: 2, privileges: "disableentitlement" });
  });
  afterEach(() => emu.close());

  async function activeEmailTemplate(systemId: string, fields: Record<string, unknown>): Promise<any> {
    // eslint-disable-line @typescript-eslint/no-explicit-any
    const t = await httpCall(emu.baseUrl, SVC, "clone", {
      ks,
      id: systemId,
      "eventNotificationTemplate[objectType]": "SvcEmailNotificationTemplate",
      ...emailFields(fields),
    });
    expect(t.id).toBeDefined();
    await httpCall(emu.baseUrl, SVC, "updateStatus", { ks, id: t.id, status: 2 });
    return t;
  }
  const waitIdle = () => json(`${emu.controlUrl}/emails/wait?timeoutMs=10000`, "POST");

  it("the sink listens on the port it reports", () => {
    expect(emu.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
  });

  it("clone -> activate -> event: the email arrives in the sink with the template's recipients and the rendered subject and body", async () => {
    const t = await activeEmailTemplate("202", editors);
    const inactive = await httpCall(emu.baseUrl, SVC, "clone", {
      ks,
      id: "202",
      "eventNotificationTemplate[objectType]": "SvcEmailNotificationTemplate",
      ...emailFields({ name: "not active", to: editors.to }),
    });
    const entry = await httpCall(emu.baseUrl, "baseEntry", "add", { ks, "entry[name]": "Launch clip ✓" });
    expect(await waitIdle()).toMatchObject({ idle: true, pending: 0 });

    const { emails } = await json(`${emu.controlUrl}/emails`);
    expect(emails).toHaveLength(1);
    const sent = emails[0];
    expect(sent).toMatchObject({
      templateId: t.id,
      partnerId: PARTNER_ID,
      event: "entry.ready",
      state: "delivered",
      delivered: true,
      from: { email: "platform@example.com", name: "Video platform" },
      to: [{ email: "editors@example.com", name: "Editors" }],
      bcc: [{ email: "audit@example.com" }],
      subject: "Ready: Launch clip ✓",
      body: `Entry Launch clip ✓ (${entry.id}) is ready. {unknown_key} stays.`,
      format: 2,
      priority: 1,
      parameters: { entry_name: "Launch clip ✓", entry_id: entry.id },
      attempts: [expect.objectContaining({ responseCode: 250 })],
    });
    expect(sent.templateId).not.toBe(inactive.id);

    const box = await json(`${emu.controlUrl}/mailbox`);
    expect(box.smtpUrl).toBe(emu.smtpUrl);
    expect(box.messages).toHaveLength(1);
    const got = box.messages[0];
    expect(got.envelope).toEqual({ from: "platform@example.com", to: ["editors@example.com", "audit@example.com"] });
    expect(got.subject).toBe("Ready: Launch clip ✓");
    expect(got.text).toBe(`Entry Launch clip ✓ (${entry.id}) is ready. {unknown_key} stays.`);
    expect(got.html).toBeUndefined();
    expect(got.from).toBe("Video platform <platform@example.com>");
    expect(got.to).toBe("Editors <editors@example.com>");
    expect(got.headers.bcc).toBeUndefined(); // bcc is in the envelope only
    expect(got.priority).toMatch(/^1/);
    expect(got.messageId).toBe(sent.messageId);
    expect(got.headers["x-svc-template-id"]).toBe(t.id);
    // filter by recipient
    expect((await json(`${emu.controlUrl}/mailbox?to=audit@example.com`)).messages).toHaveLength(1);
    expect((await json(`${emu.controlUrl}/mailbox?to=nobody@example.com`)).messages).toHaveLength(0);
  });

  it("an HTML template escapes the values it fills in", async () => {
    await activeEmailTemplate("201", {
      name: "HTML mail",
      format: 1,
      to: { emailRecipients: [{ email: "ops@example.com" }] },
      subject: "Added: {entry_name}",
      body: "<p>Added <b>{entry_name}</b> by {who}</p>",
      contentParameters: [
        { key: "entry_name", value: "{entry.name}" },
        { key: "who", value: "user {object.userId} via {template.name}" },
      ],
    });
    const fired = await json(`${emu.controlUrl}/trigger`, "POST", { event: "entry.added", object: { id: "0_x", name: "<script>&", userId: "ann" } });
    expect(fired.emailIds).toHaveLength(1);
    await waitIdle();
    const [got] = (await json(`${emu.controlUrl}/mailbox`)).messages;
    expect(got.subject).toBe("Added: <script>&");
    expect(got.html).toBe("<p>Added <b>&lt;script&gt;&amp;</b> by user ann via HTML mail</p>");
    expect(got.text).toBeUndefined();
  });

  it("sink faults are retried a bounded number of times and recorded; a kept-then-failed message arrives twice", async () => {
    const t = await activeEmailTemplate("202", editors);
    await json(`${emu.controlUrl}/faults`, "POST", { next: ["error", "commitThenError"], pathIncludes: "/smtp/" });
    await json(`${emu.controlUrl}/trigger`, "POST", { event: "entry.ready", object: { id: "0_r", name: "retried" } });
    await waitIdle();
    const [sent] = (await json(`${emu.controlUrl}/emails?templateId=${t.id}`)).emails;
    expect(sent.state).toBe("delivered");
    expect(sent.attempts.map((a: { responseCode?: number }) => a.responseCode)).toEqual([451, 451, 250]);
    expect(sent.attempts[0]).toMatchObject({ error: "EMESSAGE", response: expect.stringContaining("injected server error") });
    const box = (await json(`${emu.controlUrl}/mailbox`)).messages;
    expect(box).toHaveLength(2);
    expect(box[0].messageId).toBe(box[1].messageId);
    expect((await json(`${emu.controlUrl}/faults`)).injected).toMatchObject({ error: 1, commitThenError: 1 });

    // every attempt fails: the email is failed after maxAttempts (3), and the API itself was never faulted
    await json(`${emu.controlUrl}/mailbox`, "DELETE");
    await json(`${emu.controlUrl}/faults`, "POST", { next: ["throttle", "drop", "error"], pathIncludes: "/smtp/" });
    await json(`${emu.controlUrl}/trigger`, "POST", { event: "entry.ready", object: { id: "0_f", name: "failed" } });
    await waitIdle();
    const failed = (await json(`${emu.controlUrl}/emails?state=failed`)).emails;
    expect(failed).toHaveLength(1);
    expect(failed[0].attempts).toHaveLength(3);
    expect(failed[0].attempts.map((a: { responseCode?: number; error?: string }) => a.responseCode ?? a.error)).toEqual([421, expect.any(String), 451]);
    expect((await json(`${emu.controlUrl}/mailbox`)).messages).toHaveLength(0);
  });

  it("an account without the event notification plugin sends no email", async () => {
    await activeEmailTemplate("202", editors);
    await json(`${emu.controlUrl}/partners/${PARTNER_ID}/features`, "POST", { eventNotification: false });
    const fired = await json(`${emu.controlUrl}/trigger`, "POST", { event: "entry.ready" });
    expect(fired.emailIds).toEqual([]);
  });
});

describe("email sender", () => {
  it("a permanent refusal (5xx) fails at once, without retries", async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      logger: false,
      onRcptTo: (_address, _session, callback) => callback(Object.assign(new Error("5.1.1 no such mailbox"), { responseCode: 550 })),
    });
    const address = await new Promise<AddressInfo>((resolve) => refusing.listen(0, "127.0.0.1", () => resolve(refusing.server.address() as AddressInfo)));
    const store = new Store(":memory:");
    const log = new EmailDeliveryStore(store.db);
    const sink = { start: async () => address } as unknown as SmtpSink;
    const sender = new EmailDeliverer(log, sink, Date.now, { maxAttempts: 5, initialDelayMs: 10, timeoutMs: 2000 });
    const now = Date.now();
    const message = {
      from: { email: "platform@example.com" },
      to: [{ email: "gone@example.com" }],
      cc: [],
      bcc: [],
      replyTo: [],
      subject: "s",
      body: "b",
      format: 2 as const,
      priority: 3 as const,
      parameters: {},
    };
    const row = {
      partnerId: 1,
      templateId: "1001",
      jobId: 1,
      event: "entry.ready",
      message,
      state: "pending" as const,
      attempts: [],
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    };
    sender.schedule({ ...row, id: log.insert(row) });
    await sender.idle();
    const [done] = log.list();
    expect(done).toMatchObject({ state: "failed", attempts: [{ responseCode: 550, error: "EENVELOPE" }] });
    await sender.close();
    await new Promise<void>((r) => refusing.close(() => r()));
    store.close();
  });
});

describe("mail sink port", () => {
  it("a taken --smtp-port fails the start with an error naming the port", async () => {
    const first = await startEmulator({ quiet: true, smtp: { port: 0 } });
    const port = Number(new URL(first.smtpUrl).port);
    await expect(startEmulator({ quiet: true, smtp: { port } })).rejects.toThrow(`the mail sink could not listen on 127.0.0.1:${port}: EADDRINUSE`);
    await first.close();
  });
});
