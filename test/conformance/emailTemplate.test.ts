/**
 * EmailNotificationTemplate through the real engine against the emulator, on both providers (the dynamic provider and
 * the native plugin, from the one definition): create, no-change preview, an email delivered to the emulator's mail
 * sink whose subject and recipients are the template's, drift shown by refresh, update in place, replacement
 * (deleting first: same systemName), adoption (adoptId), import (plugin: `stack.import`; the dynamic provider host
 * cannot import), destroy. Faults: test/conformance/emailTemplateFaults.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changes, PROVIDER_KINDS, platformStack, values, type PlatformStack, type Scenario } from "../support/platformStack";

interface SentEmail {
  templateId: string;
  state: string;
  subject: string;
  to: unknown;
  messageId?: string;
}
interface MailboxMessage {
  messageId: string;
  subject: string;
  to?: string;
  cc?: string;
  replyTo?: string;
  from: string;
  text?: string;
  priority?: string;
  envelope: { from: string; to: string[] };
}

const editors = (overrides: Record<string, unknown> = {}) => ({
  event: "entry.ready",
  name: "Editors: entry ready",
  systemName: "EDITORS_ENTRY_READY",
  subject: "Ready: {entry_name}",
  body: "Entry {entry_name} ({entry_id}) is ready.",
  fromEmail: "video@example.com",
  fromName: "Video platform",
  to: [{ email: "editors@example.com", name: "Editors" }],
  cc: [{ email: "lead@example.com" }],
  bcc: [{ email: "audit@example.com" }],
  contentParameters: [
    { key: "entry_name", value: "{entry.name}" },
    { key: "entry_id", value: "{entry.id}" },
  ],
  ...overrides,
});
const program = (emailTemplates: Scenario["emailTemplates"]): Scenario => ({ emailTemplates });

describe.each(PROVIDER_KINDS)("EmailNotificationTemplate: %s provider", (provider) => {
  let p: PlatformStack;
  let id: string;

  beforeAll(async () => {
    p = await platformStack({ provider, stackName: `email-${provider}` });
  }, 120_000);
  afterAll(async () => p?.close());

  /** Raises entry.ready for an entry and returns the email the template sent and what the mail sink received. */
  async function deliveredFor(templateId: string, entry: { id: string; name: string }): Promise<{ sent: SentEmail; got: MailboxMessage }> {
    await p.control("/trigger", { event: "entry.ready", object: { ...entry, objectType: "SvcMediaEntry", status: 2 } });
    expect(await p.control("/emails/wait?timeoutMs=15000", {})).toMatchObject({ idle: true, pending: 0 });
    const { emails } = (await p.control(`/emails?templateId=${templateId}`)) as { emails: SentEmail[] };
    const sent = emails.at(-1)!;
    expect(sent.state).toBe("delivered");
    const { messages } = (await p.control("/mailbox")) as { messages: MailboxMessage[] };
    const got = messages.find((m) => m.messageId === sent.messageId);
    expect(got).toBeDefined();
    return { sent, got: got! };
  }

  it("up clones the system template with the declared email and activates it", async () => {
    await p.setScenario(program({ editors: editors() }));
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ create: 2 }); // the stack and the template
    const out = values(up.outputs);
    id = out.editorsId as string;
    expect(out).toMatchObject({
      editorsActive: true,
      editorsSource: "202",
      editorsSubject: "Ready: {entry_name}",
      editorsTo: [{ email: "editors@example.com", name: "Editors" }],
    });
    const server = await p.client.emailTemplates.get(id);
    expect(server).toMatchObject({ status: 2, systemName: "EDITORS_ENTRY_READY", fromEmail: "video@example.com", format: 2, priority: 3 });
    expect(server.to?.emailRecipients).toEqual([{ email: "editors@example.com", name: "Editors" }]);
    expect(server.bcc?.emailRecipients).toEqual([{ email: "audit@example.com" }]);
    expect(server.contentParameters?.map((c) => c.key)).toEqual(["entry_name", "entry_id"]);
  }, 180_000);

  it("preview of the unchanged program shows no change", async () => {
    const preview = await p.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
  }, 120_000);

  it("an entry becoming ready sends the email: subject and recipients as the template says, in the mail sink", async () => {
    const { sent, got } = await deliveredFor(id, { id: "0_launch", name: "Launch clip" });
    expect(sent.subject).toBe("Ready: Launch clip");
    expect(got.subject).toBe("Ready: Launch clip");
    expect(got.text).toBe("Entry Launch clip (0_launch) is ready.");
    expect(got.from).toBe("Video platform <video@example.com>");
    expect(got.to).toBe("Editors <editors@example.com>");
    expect(got.cc).toBe("lead@example.com");
    expect(got.envelope.to.sort()).toEqual(["audit@example.com", "editors@example.com", "lead@example.com"]);
  }, 60_000);

  it("refresh shows a change made outside Pulumi, and up restores the declared template", async () => {
    await p.client.emailTemplates.update(id, { subject: "edited by hand", cc: null });
    // The refresh's own summary shows the drift (a `preview --refresh` would make the same Reads).
    const refresh = await p.stack.refresh();
    expect(changes(refresh.summary.resourceChanges ?? {})).toEqual({ update: 1 });
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ update: 1 });
    const server = await p.client.emailTemplates.get(id);
    expect(server.subject).toBe("Ready: {entry_name}");
    expect(server.cc?.emailRecipients).toEqual([{ email: "lead@example.com" }]);
    await p.stack.preview({ refresh: true, expectNoChanges: true });
  }, 240_000);

  it("subject, recipients, priority and format update in place (same id), and the next email follows them", async () => {
    const updated = editors({
      subject: "Now ready: {entry_name}",
      to: [{ email: "editors@example.com", name: "Editors" }, { email: "ops@example.com" }],
      cc: [],
      replyTo: [{ email: "video-team@example.com", name: "Video team" }],
      priority: "HIGH",
    });
    await p.setScenario(program({ editors: updated }));
    // The up's summary is the plan it carried out (a preview first would plan the same diff).
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ update: 1 });
    expect(values(up.outputs)).toMatchObject({ editorsId: id, editorsSubject: "Now ready: {entry_name}" });
    const server = await p.client.emailTemplates.get(id);
    expect(server).toMatchObject({ priority: 1, status: 2 });
    expect(server.cc).toBeUndefined();

    const { got } = await deliveredFor(id, { id: "0_second", name: "Second clip" });
    expect(got.subject).toBe("Now ready: Second clip");
    expect(got.to).toBe("Editors <editors@example.com>, ops@example.com");
    expect(got.cc ?? "").toBe(""); // no cc header
    expect(got.replyTo).toBe("Video team <video-team@example.com>");
    expect(got.priority).toMatch(/^1/);
    expect(got.envelope.to.sort()).toEqual(["audit@example.com", "editors@example.com", "ops@example.com"]);
  }, 240_000);

  it("another event replaces the template, deleting the old one first (its systemName is kept)", async () => {
    await p.setScenario(program({ editors: editors({ event: "entry.added" }) }));
    const ops: string[] = [];
    const up = await p.stack.up({ onEvent: (e) => void (e.resourcePreEvent && ops.push(e.resourcePreEvent.metadata.op)) });
    expect(ops.indexOf("delete-replaced")).toBeGreaterThanOrEqual(0);
    expect(ops.indexOf("delete-replaced")).toBeLessThan(ops.indexOf("create-replacement"));
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ replace: 1 });
    const out = values(up.outputs);
    expect(out.editorsId).not.toBe(id);
    expect(out.editorsSource).toBe("201");
    await expect(p.client.emailTemplates.get(id)).rejects.toMatchObject({ code: "EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND" });
    id = out.editorsId as string;
    expect(await p.client.emailTemplates.get(id)).toMatchObject({ status: 2, systemName: "EDITORS_ENTRY_READY", eventType: "2" });
  }, 240_000);

  it("adoptId takes over a template made outside Pulumi (no second object); the plugin imports another one", async () => {
    const source = (await p.client.emailTemplates.listTemplates({ systemNameEqual: "EMAIL_ENTRY_DELETED" })).objects[0]!;
    const handMade = {
      name: "Ops: entry deleted",
      systemName: "OPS_ENTRY_DELETED",
      description: "Tells ops",
      subject: "Deleted: {entry_name}",
      body: "Entry {entry_name} was deleted.",
      fromEmail: "video@example.com",
      to: { emailRecipients: [{ email: "ops@example.com", name: "Ops" }] },
      contentParameters: [{ key: "entry_name", value: "{entry.name}" }],
    };
    const imported = await p.client.emailTemplates.clone(source.id, handMade);
    await p.client.emailTemplates.update(imported.id, { fromName: null });
    await p.client.emailTemplates.updateStatus(imported.id, 2);
    const toAdopt = await p.client.emailTemplates.clone(source.id, { name: "to adopt", to: { emailRecipients: [{ email: "x@example.com" }] } });
    const before = (await p.client.emailTemplates.iterate().toArray()).length;

    // What the program declares for the imported one: the template as it is on the server.
    const declaredImport = {
      event: "entry.deleted",
      name: handMade.name,
      systemName: handMade.systemName,
      description: handMade.description,
      subject: handMade.subject,
      body: handMade.body,
      fromEmail: handMade.fromEmail,
      to: [{ email: "ops@example.com", name: "Ops" }],
      contentParameters: handMade.contentParameters,
    };
    const adopted = editors({ adoptId: toAdopt.id, systemName: "ADOPTED", name: "Adopted: entry ready", event: "entry.ready" });
    if (provider === "plugin") {
      // `pulumi import` (the dynamic provider host cannot import: its Read gets no provider to load, docs/plugin.md).
      const result = await p.stack.import({
        resources: [{ type: "svc:index:EmailNotificationTemplate", name: "ops", id: imported.id }],
        protect: false,
        generateCode: false, // this engine's Node.js language host has no GenerateProgram
      });
      expect(result.summary.resourceChanges).toMatchObject({ import: 1 });
      // What the import recorded as the program's inputs: the event it reacts to and plain recipient lists.
      const { deployment } = (await p.stack.exportStack()) as { deployment: { resources: { id?: string; inputs?: Record<string, unknown> }[] } };
      const inputs = deployment.resources.find((r) => r.id === imported.id)?.inputs;
      expect(inputs).toMatchObject({ ...declaredImport, bcc: [], cc: [], replyTo: [], format: "TEXT", priority: "NORMAL", active: true });
      await p.setScenario(program({ editors: editors({ event: "entry.added" }), ops: declaredImport, adopted }));
    } else {
      await p.setScenario(program({ editors: editors({ event: "entry.added" }), adopted }));
    }
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ create: 1 });
    const out = values(up.outputs);
    expect(out).toMatchObject({ adoptedId: toAdopt.id, adoptedActive: true });
    if (provider === "plugin") expect(out).toMatchObject({ opsId: imported.id, opsActive: true });
    else await p.client.emailTemplates.delete(imported.id);
    expect((await p.client.emailTemplates.iterate().toArray()).length).toBe(before - (provider === "plugin" ? 0 : 1));
    expect(await p.client.emailTemplates.get(toAdopt.id)).toMatchObject({ name: "Adopted: entry ready", systemName: "ADOPTED", status: 2 });
    await p.stack.preview({ refresh: true, expectNoChanges: true });
  }, 240_000);

  it("destroy deletes every managed email template", async () => {
    const destroy = await p.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect((await p.client.emailTemplates.iterate().toArray()).filter((t) => t.partnerId !== 0)).toEqual([]);
  }, 180_000);
});
