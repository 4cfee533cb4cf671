/**
 * examples/email-on-entry-ready for real: the example's own program through the engine against the emulator, then
 * an entry becoming ready (the emulator's control API trigger, what `svc-emulator trigger` calls) and the email
 * arriving in the emulator's mail sink with the template's subject and recipients, as the README shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { values } from "../support/platformStack";
import { exampleStack, type ExampleStack } from "./exampleStack";

interface MailboxMessage {
  subject: string;
  from: string;
  to: string;
  cc?: string;
  text?: string;
  priority?: string;
  headers: Record<string, unknown>;
  envelope: { from: string; to: string[] };
}

describe("examples/email-on-entry-ready", () => {
  let p: ExampleStack;
  let templateId: string;

  beforeAll(async () => {
    p = await exampleStack("email-on-entry-ready", (emulator) => ({
      "svc:baseUrl": { value: emulator.baseUrl },
      "svc:partnerId": { value: String(emulator.partnerId) },
      "svc:adminSecret": { value: emulator.adminSecret, secret: true },
      editorsEmail: { value: "editors@example.com" },
      auditEmail: { value: "audit@example.com" },
    }));
  }, 120_000);
  afterAll(async () => p?.close());

  it("creates one active email template for entry.ready with the declared email", async () => {
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    const out = values(up.outputs);
    templateId = out.templateId as string;
    expect(out).toMatchObject({
      templateActive: true,
      subject: "Ready to review: {entry_name}",
      recipients: [{ email: "editors@example.com", name: "Editors" }],
    });
    const server = await p.admin.emailTemplates.get(templateId);
    expect(server).toMatchObject({ status: 2, systemName: "EDITORS_ENTRY_READY", eventType: "12", eventObjectType: "1", priority: 1 });
    expect(server.bcc?.emailRecipients).toEqual([{ email: "audit@example.com" }]);
  }, 180_000);

  it("an entry becoming ready sends the email: it arrives in the mail sink with the template's subject and recipients", async () => {
    const triggered = (await p.control("/trigger", {
      event: "entry.ready",
      object: { id: "0_launch", name: "Launch clip", objectType: "SvcMediaEntry", status: 2 },
    })) as { emailIds: unknown[] };
    expect(triggered.emailIds).toHaveLength(1);
    expect(await p.control("/emails/wait?timeoutMs=15000", {})).toMatchObject({ idle: true, pending: 0 });

    const { emails } = (await p.control(`/emails?templateId=${templateId}`)) as { emails: { state: string; subject: string }[] };
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ state: "delivered", subject: "Ready to review: Launch clip" });

    const { messages } = (await p.control("/mailbox")) as { messages: MailboxMessage[] };
    expect(messages).toHaveLength(1);
    const got = messages[0]!;
    expect(got.subject).toBe("Ready to review: Launch clip");
    expect(got.to).toBe("Editors <editors@example.com>");
    expect(got.from).toBe("Video platform <video@example.com>");
    expect(got.envelope).toEqual({ from: "video@example.com", to: ["editors@example.com", "audit@example.com"] });
    expect(got.headers.bcc).toBeUndefined(); // the audit address only in the envelope
    expect(got.priority).toMatch(/^1/);
    expect(got.text).toBe("The entry Launch clip (0_launch) is ready.\n\nReview it before it is published.");
  }, 60_000);

  it("destroy removes the template: the next ready entry sends nothing", async () => {
    await p.stack.destroy();
    await expect(p.admin.emailTemplates.get(templateId)).rejects.toMatchObject({ code: "EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND" });
    const triggered = (await p.control("/trigger", { event: "entry.ready" })) as { emailIds: unknown[] };
    expect(triggered.emailIds).toEqual([]);
  }, 120_000);
});
