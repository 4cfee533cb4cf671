/**
 * examples/webhook-receiver for real: the example's receiver (createReceiverServer from receiver.ts, the code
 * server.ts runs) on a port-0 socket, the example's program creating its templates on the emulator, and events
 * triggered through the emulator's control API (what `svc-emulator trigger` calls) arriving signed and verified.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeSignature, type Notification } from "pulumi-svc/sdk";
import { createReceiverServer } from "../../examples/webhook-receiver/receiver";
import { backendFilesText } from "../support/pulumi";
import { values } from "../support/platformStack";
import { exampleStack, type ExampleStack } from "./exampleStack";

const SIGN_SECRET = "receiver-example-signing-secret-42";

describe("examples/webhook-receiver", () => {
  let p: ExampleStack;
  let receiver: Server;
  let receiverUrl: string;
  const events: Notification[] = [];
  const logLines: string[] = [];
  let templateIds: Record<string, string>;

  beforeAll(async () => {
    receiver = createReceiverServer({ secret: SIGN_SECRET, onEvent: (event) => void events.push(event), log: (line) => void logLines.push(line) });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    p = await exampleStack("webhook-receiver", (emulator) => ({
      "svc:baseUrl": { value: emulator.baseUrl },
      "svc:partnerId": { value: String(emulator.partnerId) },
      "svc:adminSecret": { value: emulator.adminSecret, secret: true },
      receiverUrl: { value: receiverUrl },
      webhookSigningSecret: { value: SIGN_SECRET, secret: true },
    }));
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    receiver?.close();
  });

  it("creates one active template per event, pointing at the receiver", async () => {
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    const out = values(up.outputs);
    templateIds = out.templateIds as Record<string, string>;
    expect(Object.keys(templateIds).sort()).toEqual(["entry.added", "entry.ready"]);
    for (const [event, id] of Object.entries(templateIds)) {
      const systemName = `RECEIVER_${event.toUpperCase().replace(".", "_")}`;
      expect(await p.admin.templates.get(id)).toMatchObject({ status: 2, url: receiverUrl, systemName });
    }
    expect(backendFilesText(p.backendDir)).not.toContain(SIGN_SECRET);
  }, 120_000);

  it("a triggered event reaches the receiver signed; it verifies, logs and hands it on", async () => {
    await p.control("/trigger", { event: "entry.added", object: { id: "0_clip1", name: "clip", objectType: "SvcMediaEntry" } });
    await p.control("/trigger", { event: "entry.ready" });
    expect(await p.control("/deliveries/wait?timeoutMs=10000", {})).toMatchObject({ idle: true, pending: 0 });

    expect(events.map((e) => e.templateId).sort()).toEqual([templateIds["entry.added"], templateIds["entry.ready"]].sort());
    const added = events.find((e) => e.templateId === templateIds["entry.added"])!;
    expect(added).toMatchObject({ eventType: "2", eventObjectType: "1", object: { id: "0_clip1" } });
    expect(logLines).toContain(
      `[webhook] ${"event 2/1 on SvcMediaEntry 0_clip1"} (template ${added.templateId} ${added.templateSystemName ?? added.templateName}, job ${added.eventNotificationJobId})`,
    );

    // The emulator's delivery log agrees: each delivered on the first attempt, answered 200 by the receiver.
    const { deliveries } = (await p.control("/deliveries")) as { deliveries: { templateId: string; state: string; statusCodes: (number | null)[] }[] };
    expect(deliveries).toHaveLength(2);
    for (const d of deliveries) expect(d).toMatchObject({ state: "delivered", statusCodes: [200] });
    expect(logLines.join("\n")).not.toContain(SIGN_SECRET);
  }, 60_000);

  it("refuses a delivery signed with another secret, without calling onEvent", async () => {
    const body = JSON.stringify({ ...events[0], eventNotificationJobId: 999 });
    const before = events.length;
    const forged = await request(receiverUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-signature": computeSignature(body, "some-other-secret-0123456789") },
      body,
    });
    expect(forged.statusCode).toBe(401);
    await forged.body.dump();
    const genuine = await request(receiverUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-signature": computeSignature(body, SIGN_SECRET) },
      body,
    });
    expect(genuine.statusCode).toBe(200);
    await genuine.body.dump();
    expect(events.length).toBe(before + 1);
    expect(events.at(-1)!.eventNotificationJobId).toBe(999);
    expect(logLines).toContain("[webhook] refused a POST to /hooks: 401");
  });
});
