/** client.emailTemplates: request shapes (MockAgent), input validation before any call, and a round trip through the emulator's SMTP sink. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmailNotificationTemplates, EventNotificationTemplates, SvcClient, SvcResponseError, SvcValidationError } from "../../sdk";
import { harness, KS, PARTNER_ID, recorder } from "./helpers";

const T = "/api_v3/service/eventnotification_eventnotificationtemplate/action";

function emailTemplateJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "1001",
    partnerId: PARTNER_ID,
    name: "Tell editors",
    type: "emailNotification.Email",
    status: 1,
    eventType: "12",
    eventObjectType: "1",
    createdAt: 1_700_000_000,
    updatedAt: 1_700_000_000,
    objectType: "SvcEmailNotificationTemplate",
    format: 2,
    subject: "Ready: {entry_name}",
    body: "Entry {entry_name}",
    fromEmail: "platform@example.com",
    priority: 3,
    to: { objectType: "SvcEmailNotificationStaticRecipientProvider", emailRecipients: [{ email: "editors@example.com" }] },
    ...overrides,
  };
}

describe("emailTemplates request shapes", () => {
  it("clone sends the email objectType, nested recipients and content parameters as a[b][0][c]", async () => {
    const { pool, client } = harness();
    const bodies: Record<string, string>[] = [];
    pool.intercept({ path: `${T}/clone`, method: "POST" }).reply(recorder(bodies, emailTemplateJson()));
    const made = await client.emailTemplates.clone("202", {
      name: "Tell editors",
      systemName: "EDITORS",
      format: 1,
      subject: "Ready: {entry_name}",
      body: "<p>{entry_name}</p>",
      fromEmail: "platform@example.com",
      fromName: "Platform",
      to: { emailRecipients: [{ email: "editors@example.com", name: "Editors" }] },
      cc: { emailRecipients: [{ email: "ops@example.com" }] },
      priority: 1,
      contentParameters: [{ key: "entry_name", description: "Entry name", value: "{entry.name}" }],
    });
    expect(made).toMatchObject({ id: "1001", format: 2, to: { emailRecipients: [{ email: "editors@example.com" }] } });
    expect(bodies[0]).toEqual({
      format: "1",
      ks: KS,
      id: "202",
      "eventNotificationTemplate[objectType]": "SvcEmailNotificationTemplate",
      "eventNotificationTemplate[name]": "Tell editors",
      "eventNotificationTemplate[systemName]": "EDITORS",
      "eventNotificationTemplate[format]": "1",
      "eventNotificationTemplate[subject]": "Ready: {entry_name}",
      "eventNotificationTemplate[body]": "<p>{entry_name}</p>",
      "eventNotificationTemplate[fromEmail]": "platform@example.com",
      "eventNotificationTemplate[fromName]": "Platform",
      "eventNotificationTemplate[to][objectType]": "SvcEmailNotificationStaticRecipientProvider",
      "eventNotificationTemplate[to][emailRecipients][0][email]": "editors@example.com",
      "eventNotificationTemplate[to][emailRecipients][0][name]": "Editors",
      "eventNotificationTemplate[cc][objectType]": "SvcEmailNotificationStaticRecipientProvider",
      "eventNotificationTemplate[cc][emailRecipients][0][email]": "ops@example.com",
      "eventNotificationTemplate[priority]": "1",
      "eventNotificationTemplate[contentParameters][0][key]": "entry_name",
      "eventNotificationTemplate[contentParameters][0][description]": "Entry name",
      "eventNotificationTemplate[contentParameters][0][value]": "{entry.name}",
    });
  });

  it("update sends null as field__null; list and listTemplates always filter on the email type", async () => {
    const { pool, client } = harness();
    const bodies: Record<string, string>[] = [];
    pool.intercept({ path: `${T}/update`, method: "POST" }).reply(recorder(bodies, emailTemplateJson()));
    pool
      .intercept({ path: `${T}/list`, method: "POST" })
      .reply(recorder(bodies, { objects: [emailTemplateJson()], totalCount: 1, objectType: "SvcEventNotificationTemplateListResponse" }));
    pool
      .intercept({ path: `${T}/listTemplates`, method: "POST" })
      .reply(recorder(bodies, { objects: [], totalCount: 0, objectType: "SvcEventNotificationTemplateListResponse" }));
    await client.emailTemplates.update("1001", { subject: "New", cc: null, contentParameters: null });
    expect(bodies[0]).toEqual({
      format: "1",
      ks: KS,
      id: "1001",
      "eventNotificationTemplate[objectType]": "SvcEmailNotificationTemplate",
      "eventNotificationTemplate[subject]": "New",
      "eventNotificationTemplate[cc]__null": "",
      "eventNotificationTemplate[contentParameters]__null": "",
    });
    const list = await client.emailTemplates.list({ systemNameEqual: "EDITORS" }, { pageSize: 5 });
    expect(list.objects[0]?.subject).toBe("Ready: {entry_name}");
    expect(bodies[1]).toMatchObject({
      "filter[objectType]": "SvcEventNotificationTemplateFilter",
      "filter[systemNameEqual]": "EDITORS",
      "filter[typeEqual]": "emailNotification.Email",
      "pager[pageSize]": "5",
    });
    await client.emailTemplates.listTemplates();
    expect(bodies[2]).toMatchObject({ "filter[typeEqual]": "emailNotification.Email" });
  });

  it("bad input fails before any call, naming the field; an HTTP template is not read as an email one", async () => {
    const { pool, client } = harness();
    const to = { emailRecipients: [{ email: "a@example.com" }] };
    await expect(client.emailTemplates.clone("202", { name: "ok name", to: { emailRecipients: [{ email: "nope" }] } })).rejects.toThrow(
      /emailTemplates\.clone: to\.emailRecipients\.0\.email: expected an email address/,
    );
    await expect(client.emailTemplates.clone("202", { name: "ok name", to, format: 3 as 1 })).rejects.toThrow(
      /format: expected format: 1 \(HTML\), 2 \(TEXT\)/,
    );
    await expect(client.emailTemplates.clone("202", { name: "ab", to })).rejects.toThrow(/name: must be at least 3 characters/);
    await expect(client.emailTemplates.clone("202", { name: "ok name", to, contentParameters: [{ key: "x", value: "{ks}" }] })).rejects.toThrow(
      /contentParameters\.0\.value: placeholders must be/,
    );
    await expect(client.emailTemplates.update("1001", { url: "https://x" } as never)).rejects.toThrow(/unknown field\(s\) "url"/);
    await expect(client.emailTemplates.list({ typeEqual: "httpNotification.Http" } as never)).rejects.toBeInstanceOf(SvcValidationError);
    pool
      .intercept({ path: `${T}/get`, method: "POST" })
      .reply(200, { ...emailTemplateJson(), type: "httpNotification.Http", objectType: "SvcHttpNotificationTemplate" });
    await expect(client.emailTemplates.get("1001")).rejects.toBeInstanceOf(SvcResponseError);
  });
});

describe("one client of the template service", () => {
  it("client.templates and client.emailTemplates are its two kinds, named as such in messages; the old class name is an alias", async () => {
    const { client } = harness();
    expect(client.templates).toBeInstanceOf(EventNotificationTemplates);
    expect(client.emailTemplates).toBeInstanceOf(EventNotificationTemplates);
    expect(EmailNotificationTemplates).toBe(EventNotificationTemplates);
    await expect(client.templates.clone("3", { name: "hook", url: "https://example.com/hook" })).rejects.toThrow(/^templates\.clone: signSecret is required/);
    await expect(client.emailTemplates.updateStatus("", 2)).rejects.toThrow(/^emailTemplates\.updateStatus: id: must be a non-empty string/);
    await expect(client.templates.list({ pageSize: 5 } as never)).rejects.toThrow(/^templates\.list: filter: unknown field\(s\) "pageSize"/);
  });
});

describe("emailTemplates against the emulator", () => {
  let emu: RunningEmulator;
  let client: SvcClient;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, quiet: true, smtp: { port: 0 }, delivery: { initialDelayMs: 20, maxAttempts: 3, timeoutMs: 2000 } });
    client = new SvcClient({ baseUrl: emu.baseUrl, partnerId: emu.partnerId, auth: { adminSecret: emu.adminSecret } });
  });
  afterAll(async () => {
    await client?.close();
    await emu?.close();
  });

  it("listTemplates -> clone -> updateStatus -> event -> the email is in the sink; update, find by systemName, delete", async () => {
    const system = await client.emailTemplates.listTemplates({ systemNameEqual: "EMAIL_ENTRY_READY" });
    expect(system.objects).toHaveLength(1);
    const made = await client.emailTemplates.clone(system.objects[0]!.id, {
      name: "Ops: entry ready",
      systemName: "OPS_ENTRY_READY",
      to: { emailRecipients: [{ email: "ops@example.com", name: "Ops" }] },
      subject: "{entry_name} is ready",
      contentParameters: [{ key: "entry_name", value: "{entry.name}" }],
    });
    expect(made).toMatchObject({ status: 1, format: 2, fromEmail: expect.any(String), priority: 3 });
    await client.emailTemplates.updateStatus(made.id, 2);
    const found = await client.emailTemplates.list({ systemNameEqual: "OPS_ENTRY_READY" });
    expect(found.objects.map((t) => t.id)).toEqual([made.id]);

    const fired = await fetch(`${emu.controlUrl}/trigger`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ event: "entry.ready", object: { id: "0_sdk", name: "From the sdk" } }),
    }).then((r) => r.json());
    expect(fired.emailIds).toHaveLength(1);
    await fetch(`${emu.controlUrl}/emails/wait`, { method: "POST" });
    const { messages } = await fetch(`${emu.controlUrl}/mailbox?to=ops@example.com`).then((r) => r.json());
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ subject: "From the sdk is ready", envelope: { to: ["ops@example.com"] } });

    const updated = await client.emailTemplates.update(made.id, { priority: 5, fromName: null });
    expect(updated.priority).toBe(5);
    expect(updated.fromName).toBeUndefined();
    await client.emailTemplates.delete(made.id);
    await expect(client.emailTemplates.get(made.id)).rejects.toMatchObject({ code: "EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND" });
  });
});
