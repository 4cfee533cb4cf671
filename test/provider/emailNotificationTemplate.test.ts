/**
 * EmailNotificationTemplate through the provider runtime (the handlers both providers call) against the emulator in
 * this process, no engine: check's rules, clone then activate with the declared email (inherited fields cleared),
 * read giving back exactly the checked inputs, in-place update with cleared lists, diff's replacing fields, adoption,
 * an import's read, a wrong-kind id, a lost clone answer recovered, and a failed activation leaving nothing behind (or recorded as a partial failure).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { PartialCreateError } from "../../provider/core/errors";
import { configureForEmulator, providerRuntime } from "../support/providerRuntime";
import { EventNotificationTemplates, SvcApiError, SvcClient } from "../../sdk";

const { session, emailNotificationTemplate: provider } = providerRuntime();

const declared = (overrides: Record<string, unknown> = {}) => ({
  event: "entry.ready",
  name: "Editors: entry ready",
  subject: "Ready: {entry_name}",
  body: "Entry {entry_name} is ready.",
  fromEmail: "video@example.com",
  to: [{ email: "editors@example.com", name: "Editors" }],
  contentParameters: [{ key: "entry_name", value: "{entry.name}" }],
  ...overrides,
});

describe("EmailNotificationTemplate in the provider runtime", () => {
  let emulator: RunningEmulator;
  let admin: SvcClient;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    configureForEmulator(session, emulator);
  });
  afterAll(async () => {
    await session.close();
    await admin.close();
    await emulator.close();
  });

  const checked = async (news: Record<string, unknown>) => {
    const { inputs, failures } = await provider.check({}, news);
    expect(failures).toEqual([]);
    return inputs;
  };
  const emailTemplateIds = async () =>
    (await admin.emailTemplates.iterate().toArray())
      .filter((t) => t.partnerId !== 0)
      .map((t) => t.id)
      .sort();

  it("check names every bad field: selectors, recipients, addresses, content parameter keys, unknown fields", async () => {
    const { failures } = await provider.check(
      {},
      {
        event: "entry.ready",
        systemTemplateName: "EMAIL_ENTRY_READY",
        name: "ab",
        subject: "two\nlines",
        body: "b",
        fromEmail: "not-an-address",
        to: [],
        cc: [{ email: "x@example.com", nam: "typo" }],
        priority: "URGENT",
        contentParameters: [
          { key: "a", value: "{a}" },
          { key: "a", value: "x" },
        ],
        colour: "red",
      },
    );
    const byProperty = Object.fromEntries(failures.map((f) => [f.property, f.reason]));
    expect(Object.keys(byProperty).sort()).toEqual(["colour", "contentParameters", "event", "fromEmail", "name", "priority", "subject", "to"]);
    expect(byProperty.to).toMatch(/at least one recipient/);
    expect(byProperty.event).toMatch(/exactly one of systemTemplateId, systemTemplateName or event/);
    // Extra keys in a recipient are dropped (zod objects strip), not refused: the wire would never see them.
    expect(byProperty.cc).toBeUndefined();
  });

  it("clones the system template with the declared email, clears what it inherited, activates; read gives back the inputs", async () => {
    const inputs = await checked(declared({ systemName: "EDITORS_READY" }));
    expect(inputs).toMatchObject({ format: "TEXT", priority: "NORMAL", cc: [], bcc: [], replyTo: [], description: "", active: true });
    const { id, outs } = await provider.create(inputs);
    expect(outs).toMatchObject({
      templateId: id,
      sourceTemplateId: "202",
      active: true,
      status: 2,
      subject: "Ready: {entry_name}",
      to: [{ email: "editors@example.com", name: "Editors" }],
      contentParameters: [{ key: "entry_name", value: "{entry.name}" }],
    });
    // The system template's sender name and its three content parameters were not declared: not inherited.
    expect(outs.fromName).toBeUndefined();
    const server = await admin.emailTemplates.get(id);
    expect(server.fromName).toBeUndefined();
    expect(server.contentParameters).toEqual([{ key: "entry_name", value: "{entry.name}" }]);
    expect(server.to).toEqual({
      objectType: "SvcEmailNotificationStaticRecipientProvider",
      emailRecipients: [{ email: "editors@example.com", name: "Editors" }],
    });

    const read = await provider.read(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual(inputs);
    expect(await provider.diff(id, outs, inputs)).toMatchObject({ changes: false, replaces: [] });
    await provider.delete(id, outs);
  });

  it("updates in place (lists replaced whole, left-out fields cleared); a new source template replaces, deleting first when the systemName stays", async () => {
    const inputs = await checked(
      declared({ systemName: "UPDATE_ME", fromName: "Video", cc: [{ email: "lead@example.com" }], replyTo: [{ email: "team@example.com", name: "Team" }] }),
    );
    const { id, outs } = await provider.create(inputs);
    const news = await checked(
      declared({
        systemName: "UPDATE_ME",
        subject: "Now ready: {entry_name}",
        to: [{ email: "editors@example.com" }, { email: "ops@example.com", name: "Ops" }],
        bcc: [{ email: "audit@example.com" }],
        priority: "HIGH",
        format: "HTML",
      }),
    );
    const diff = await provider.diff(id, outs, news);
    expect(diff.replaces).toEqual([]);
    expect([...(diff.changed ?? [])].sort()).toEqual(["bcc", "cc", "format", "fromName", "priority", "replyTo", "subject", "to"]);
    const updated = await provider.update(id, outs, news);
    expect(updated.outs).toMatchObject({
      templateId: id,
      subject: "Now ready: {entry_name}",
      to: [{ email: "editors@example.com" }, { email: "ops@example.com", name: "Ops" }],
      cc: [],
      bcc: [{ email: "audit@example.com" }],
      replyTo: [],
      priority: "HIGH",
      format: "HTML",
    });
    expect(updated.outs.fromName).toBeUndefined();
    const server = await admin.emailTemplates.get(id);
    expect(server).toMatchObject({ priority: 1, format: 1, status: 2 });
    expect(server.cc).toBeUndefined();
    expect((await provider.read(id, updated.outs)).inputs).toEqual(news);

    const disabled = await provider.update(id, updated.outs, { ...news, active: false });
    expect(disabled.outs).toMatchObject({ active: false, status: 1 });

    const moved = await provider.diff(id, disabled.outs, { ...news, event: "entry.added", active: false });
    expect(moved).toMatchObject({ changes: true, replaces: ["event"], deleteBeforeReplace: true });
    const renamed = await provider.diff(id, disabled.outs, { ...news, event: "entry.added", systemName: "OTHER", active: false });
    expect(renamed.deleteBeforeReplace).toBeUndefined();
    await provider.delete(id, disabled.outs);
    await provider.delete(id, disabled.outs); // gone: done
    expect(await provider.read(id, disabled.outs)).toEqual({ id: "" });
  });

  it("an import's read (no state) derives the event and gives inputs that check accepts as they are", async () => {
    const source = (await admin.emailTemplates.listTemplates({ systemNameEqual: "EMAIL_ENTRY_ADDED" })).objects[0]!;
    const made = await admin.emailTemplates.clone(source.id, {
      name: "made by hand",
      to: { emailRecipients: [{ email: "hand@example.com" }] },
      cc: { emailRecipients: [{ email: "cc@example.com", name: "CC" }] },
    });
    const read = await provider.read(made.id, {});
    expect(read.inputs).toMatchObject({
      event: "entry.added",
      name: "made by hand",
      to: [{ email: "hand@example.com" }],
      cc: [{ email: "cc@example.com", name: "CC" }],
      bcc: [],
      fromName: source.fromName,
      active: false,
    });
    const again = await provider.check(read.inputs!, read.inputs!);
    expect(again.failures).toEqual([]);
    expect(await provider.diff(made.id, read.props!, again.inputs)).toMatchObject({ changes: false });
    await admin.emailTemplates.delete(made.id);
  });

  it("adoptId takes over an email template without a second one; an HTTP template's id or a missing one is refused", async () => {
    const source = (await admin.emailTemplates.listTemplates({ systemNameEqual: "EMAIL_ENTRY_READY" })).objects[0]!;
    const existing = await admin.emailTemplates.clone(source.id, { name: "hand made", to: { emailRecipients: [{ email: "x@example.com" }] } });
    const before = await emailTemplateIds();
    const adopted = await provider.create(await checked(declared({ adoptId: existing.id })));
    expect(adopted.id).toBe(existing.id);
    expect(await emailTemplateIds()).toEqual(before);
    expect(await admin.emailTemplates.get(existing.id)).toMatchObject({ name: "Editors: entry ready", status: 2, contentParameters: [{ key: "entry_name" }] });
    expect((await admin.emailTemplates.get(existing.id)).fromName).toBeUndefined();

    const http = (await admin.templates.listTemplates({ systemNameEqual: "HTTP_ENTRY_ADDED" })).objects[0]!;
    const hook = await admin.templates.clone(http.id, { name: "a webhook", url: "https://hooks.example/x", signSecret: "a-webhook-signing-secret" });
    await expect(provider.create(await checked(declared({ adoptId: hook.id })))).rejects.toThrow(`template ${hook.id} is not an email notification template`);
    await expect(provider.read(hook.id, {})).rejects.toThrow(/is not an email notification template/);
    await expect(provider.create(await checked(declared({ adoptId: "999999" })))).rejects.toThrow(/adoptId: email template 999999 was not found/);
    await provider.delete(existing.id, adopted.outs);
    await admin.templates.delete(hook.id);
  });

  it.each([
    ["by its systemName", { systemName: "LOST_CLONE" }],
    ["by name, subject and description", { name: "Lost clone, no systemName", subject: "Lost: {entry_name}" }],
  ])("a clone whose answer was lost after the platform acted is found again %s and finished, not duplicated", async (_how, fields) => {
    const before = await emailTemplateIds();
    emulator.ctx.faults.set({ next: ["commitThenError"], pathIncludes: "/action/clone" });
    const { id, outs } = await provider.create(await checked(declared(fields)));
    emulator.ctx.faults.set({});
    expect((await emailTemplateIds()).filter((t) => !before.includes(t))).toEqual([id]);
    expect(outs).toMatchObject({ active: true, contentParameters: [{ key: "entry_name" }] });
    expect(outs.fromName).toBeUndefined();
    await provider.delete(id, outs);
  });

  it("a failed activation deletes the clone; when the delete fails too, the clone is handed to the engine as a partial failure", async () => {
    // Final refusals (not retried), so the test does not wait out the retries of injected 5xx (the engine tests do that).
    const refused = () => Promise.reject(new SvcApiError("INTERNAL_SERVER_ERROR", "refused by the test"));
    const before = await emailTemplateIds();
    const activate = vi.spyOn(EventNotificationTemplates.prototype, "updateStatus").mockImplementation(refused);
    await expect(provider.create(await checked(declared({ systemName: "NEVER_ACTIVE" })))).rejects.toThrow(
      /Finishing email template \d+ failed \(INTERNAL_SERVER_ERROR: refused by the test\); the clone was deleted, so nothing is left behind/,
    );
    expect(await emailTemplateIds()).toEqual(before);

    const remove = vi.spyOn(EventNotificationTemplates.prototype, "delete").mockImplementation(refused);
    const failed = await provider.create(await checked(declared({ systemName: "HALF_MADE" }))).catch((e: unknown) => e);
    activate.mockRestore();
    remove.mockRestore();
    expect(failed).toBeInstanceOf(PartialCreateError);
    const partial = failed as PartialCreateError;
    expect(partial.message).toMatch(/deleting the clone failed too/);
    expect((await emailTemplateIds()).filter((id) => !before.includes(id))).toEqual([partial.id]);
    // Recorded as it is on the server: cleared of what it inherited, not active.
    expect(partial.properties).toMatchObject({ templateId: partial.id, active: false, systemName: "HALF_MADE", contentParameters: [{ key: "entry_name" }] });
    await provider.delete(partial.id, partial.properties);
    expect(await emailTemplateIds()).toEqual(before);
  });
});
