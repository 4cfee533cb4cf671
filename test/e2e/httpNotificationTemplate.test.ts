/**
 * HttpNotificationTemplate through the real Pulumi engine against the emulator: clone plus activation with a
 * real signed delivery to a receiver built on the sdk's handler, in-place updates, replacement that deletes first
 * (systemName stays unique), activation failure that leaves nothing behind, bad inputs refused in preview with
 * no API call, the signing secret absent from the state at rest, and destroy.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookHandler, type Notification } from "../../sdk";
import { backendFilesText } from "../support/pulumi";
import { changes, platformStack, SIGN_SECRET, values, type PlatformStack } from "../support/platformStack";

describe("HttpNotificationTemplate end to end", () => {
  let p: PlatformStack;
  let receiver: Server;
  const received: { event: Notification; signature: string; rawBody: Buffer }[] = [];
  let templateId: string;
  let receiverUrl: string;
  let externalId: string;

  const template = (overrides: Record<string, unknown> = {}) => ({
    event: "entry.added",
    name: "Entry added hook",
    systemName: "E2E_ENTRY_HOOK",
    url: "$receiverUrl",
    signSecret: "$signSecret",
    ...overrides,
  });
  const accountTemplates = async () => (await p.client.templates.list({}, { pageSize: 500 })).objects.filter((t) => t.status !== 3);

  beforeAll(async () => {
    const handler = createWebhookHandler({
      secret: SIGN_SECRET,
      onEvent: (event, { rawBody }) => void received.push({ event, rawBody, signature: "" }),
    });
    receiver = createServer((req, res) => {
      const signature = String(req.headers["x-svc-signature"] ?? "");
      res.on("finish", () => {
        const last = received.at(-1);
        if (last && last.signature === "") last.signature = signature;
      });
      handler(req, res);
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    p = await platformStack();
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await p.stack.setConfig("receiverUrl", { value: receiverUrl });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    receiver?.close();
  });

  it("clones the system template, activates it, and real deliveries arrive signed", async () => {
    await p.setScenario({ templates: { hook: template() } });
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    const out = values(up.outputs);
    templateId = out.hookId as string;
    expect(out.hookActive).toBe(true);
    const onServer = await p.client.templates.get(templateId);
    expect(onServer).toMatchObject({ status: 2, name: "Entry added hook", systemName: "E2E_ENTRY_HOOK", method: 2, secureHashingAlgo: 2 });
    expect(out.hookSource).toBe("101");

    await p.control("/trigger", { event: "entry.added" });
    await p.control("/deliveries/wait?timeoutMs=10000", {});
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(delivery!.event).toMatchObject({ templateId, eventType: "2", eventObjectType: "1" });
    // Recomputed here, independently of the sdk: hex SHA256 of the secret followed by the raw body.
    expect(delivery!.signature).toBe(createHash("sha256").update(SIGN_SECRET).update(delivery!.rawBody).digest("hex"));
  }, 120_000);

  it("preview of the unchanged program shows no change", async () => {
    expect((await p.stack.preview()).changeSummary).toEqual({ same: 2 });
  }, 60_000);

  it("updates name and url in place, and disables with active: false", async () => {
    await p.setScenario({ templates: { hook: template({ name: "Renamed hook", active: false }) } });
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 1, update: 1 });
    expect(values(up.outputs).hookId).toBe(templateId);
    expect(await p.client.templates.get(templateId)).toMatchObject({ name: "Renamed hook", status: 1 });
    expect((await p.stack.preview()).changeSummary).toEqual({ same: 2 });
  }, 120_000);

  it("replaces when the event changes, deleting first because the systemName must stay unique", async () => {
    await p.setScenario({ templates: { hook: template({ event: "entry.ready" }) } });
    const steps: string[] = [];
    const up = await p.stack.up({
      onEvent: (event: EngineEvent) => {
        const op = event.resOutputsEvent?.metadata.op;
        if (op && event.resOutputsEvent?.metadata.type.endsWith("HttpNotificationTemplate")) steps.push(op);
      },
    });
    expect(up.summary.resourceChanges).toEqual({ same: 1, replace: 1 });
    expect(steps.indexOf("delete-replaced")).toBeGreaterThanOrEqual(0);
    expect(steps.indexOf("delete-replaced")).toBeLessThan(steps.indexOf("create-replacement"));
    const out = values(up.outputs);
    expect(out.hookId).not.toBe(templateId);
    expect(out.hookSource).toBe("105");
    expect((await accountTemplates()).map((t) => t.id)).toEqual([out.hookId]);
    templateId = out.hookId as string;
  }, 120_000);

  it("refresh shows a url changed outside Pulumi and up restores it; get reads a template without managing it", async () => {
    await p.client.templates.update(templateId, { url: "https://elsewhere.example.com/hook" });
    expect((await p.stack.refresh()).summary.resourceChanges).toEqual({ same: 1, update: 1 });
    expect((await p.stack.up()).summary.resourceChanges).toEqual({ same: 1, update: 1 });
    expect((await p.client.templates.get(templateId)).url).toBe(receiverUrl);

    const external = await p.client.templates.clone("103", {
      name: "Another team's hook",
      systemName: "EXTERNAL_HOOK",
      url: "https://other.example.com/h",
      method: 2,
      signSecret: "another-teams-secret-123",
    });
    externalId = external.id;
    await p.setScenario({ templates: { hook: template({ event: "entry.ready" }) }, templateLookups: { external: externalId } });
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges!)).toEqual({});
    expect(values(up.outputs)).toMatchObject({ externalUrl: "https://other.example.com/h", externalActive: false });
  }, 120_000);

  it("refuses bad inputs in preview, naming every field, before any API call, without echoing secrets", async () => {
    const previewError = async () =>
      String(
        (
          await p.stack.preview().then(
            () => undefined,
            (error: Error) => error,
          )
        )?.message,
      );
    await p.resetStats();

    const badSecret = "short-secret-NOT-TO-BE-ECHOED".slice(0, 12);
    await p.setScenario({
      templates: {
        hook: template({ event: "entry.ready" }),
        broken: { event: "entry.added", name: "ab", url: "http://example.com/hook", signSecret: badSecret },
      },
    });
    const templateMessage = await previewError();
    for (const field of ["name:", "url:", "signSecret:"]) expect(templateMessage).toContain(field);
    expect(templateMessage).toContain("expected an https:// URL");
    expect(templateMessage).not.toContain(badSecret);

    // No lookup here: the engine reads a looked-up template during preview, and whether that read starts before the
    // bad token's check stops the preview depends on scheduling (a race seen on a loaded machine).
    await p.setScenario({
      tokens: { bad: { hashType: "SHA3", sessionDuration: -1, sessionType: "ROOT" } },
      templates: { hook: template({ event: "entry.ready" }) },
    });
    const tokenMessage = await previewError();
    for (const field of ["hashType:", "sessionDuration:", "sessionType:"]) expect(tokenMessage).toContain(field);

    expect(await p.stats()).toEqual({});
  }, 120_000);

  it("removes the clone when activation fails, so nothing unrecorded is left on the server", async () => {
    await p.setScenario({
      templates: { hook: template({ event: "entry.ready" }), second: template({ systemName: "E2E_SECOND", event: "entry.deleted" }) },
      templateLookups: { external: externalId },
    });
    const before = (await accountTemplates()).map((t) => t.id);
    await p.control("/faults", { errorRate: 1, pathIncludes: "/action/updateStatus" });
    try {
      const failure = await p.stack.up().then(
        () => undefined,
        (error: Error) => error,
      );
      expect(String(failure?.message)).toMatch(/Activating template \S+ failed .*the clone was deleted, so nothing is left behind/);
    } finally {
      await p.control("/faults", {});
    }
    expect((await accountTemplates()).map((t) => t.id)).toEqual(before);
    const urns = ((await p.stack.exportStack()).deployment.resources ?? []).map((r: { urn: string }) => r.urn);
    expect(urns.some((urn: string) => urn.endsWith("::second"))).toBe(false);
  }, 180_000);

  it("records a clone it could neither activate nor delete (a partial failure), and the next up finishes it", async () => {
    // Only the new template calls the template service during this up (no lookups, no refresh), so: listTemplates
    // and clone go through; every later call fails (the activation, then the cleanup delete, each after retries).
    await p.setScenario({ templates: { hook: template({ event: "entry.ready" }), third: template({ systemName: "E2E_THIRD", event: "entry.updated" }) } });
    await p.control("/faults", { next: ["ok", "ok"], errorRate: 1, pathIncludes: "/service/eventnotification_eventnotificationtemplate/" });
    let failure: Error | undefined;
    try {
      failure = await p.stack.up().then(
        () => undefined,
        (error: Error) => error,
      );
    } finally {
      await p.control("/faults", {});
    }
    expect(String(failure?.message)).toMatch(/cloned but activating it failed .*deleting the clone failed too/);
    const recorded = ((await p.stack.exportStack()).deployment.resources as { urn: string; id?: string }[]).find((r) => r.urn.endsWith("::third"));
    expect(recorded?.id).toBeTruthy();
    expect((await p.client.templates.get(recorded!.id!)).status).toBe(1); // on the server, inactive, and known to the stack
    expect(backendFilesText(p.backendDir)).not.toContain(SIGN_SECRET);

    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges!)).toEqual({ update: 1, discard: 1 }); // discard: the lookup left the program
    expect(await p.client.templates.get(recorded!.id!)).toMatchObject({ status: 2, signSecret: SIGN_SECRET });
  }, 180_000);

  it("keeps the signing secret out of the state at rest", async () => {
    const atRest = backendFilesText(p.backendDir);
    expect(atRest).toContain(templateId);
    expect(atRest).not.toContain(SIGN_SECRET);
    expect(atRest).not.toContain(p.emulator.adminSecret);
  });

  it("destroy deletes the managed template and leaves the looked-up one alone", async () => {
    await p.setScenario({ templates: { hook: template({ event: "entry.ready" }) }, templateLookups: { external: externalId } });
    const destroy = await p.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect((await accountTemplates()).map((t) => t.id)).toEqual([externalId]);
  }, 120_000);
});
