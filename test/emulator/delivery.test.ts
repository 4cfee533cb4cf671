import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { ADMIN_SECRET, PARTNER_ID, httpCall } from "./helpers";

const SVC = "eventnotification_eventnotificationtemplate";

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

/** A local webhook receiver answering with the given statuses in turn (then 200). */
async function receiver(statuses: number[] = []): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, server };
}

const json = async (url: string, method = "GET", body?: unknown): Promise<any> => {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await request(url, {
    method: method as "GET",
    ...(body !== undefined ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
  });
  return res.body.json();
};

describe("webhook delivery (real sockets)", () => {
  let emu: RunningEmulator;
  let ks: string;
  const servers: Server[] = [];
  beforeEach(async () => {
    emu = await startEmulator({
      partnerId: PARTNER_ID,
      adminSecret: ADMIN_SECRET,
      quiet: true,
      delivery: { initialDelayMs: 20, maxAttempts: 3, timeoutMs: 2000 },
    });
    ks = await httpCall(emu.baseUrl, "session", "start", { secret: ADMIN_SECRET, partnerId: PARTNER_ID, type: 2, privileges: "disableentitlement" });
  });
  afterEach(async () => {
    await emu.close();
    for (const s of servers.splice(0)) s.close();
  });

  async function activeTemplate(systemId: string, url: string, extra: Record<string, string | number> = {}): Promise<any> {
    // eslint-disable-line @typescript-eslint/no-explicit-any
    const t = await httpCall(emu.baseUrl, SVC, "clone", {
      ks,
      id: systemId,
      "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
      "eventNotificationTemplate[name]": `hook ${systemId}`,
      "eventNotificationTemplate[systemName]": `HOOK_${systemId}_${Math.random().toString(36).slice(2, 8)}`,
      "eventNotificationTemplate[url]": url,
      "eventNotificationTemplate[method]": 2,
      "eventNotificationTemplate[signSecret]": "whsec-test-1234",
      "eventNotificationTemplate[secureHashingAlgo]": 2,
      ...extra,
    });
    await httpCall(emu.baseUrl, SVC, "updateStatus", { ks, id: t.id, status: 2 });
    return t;
  }

  const waitIdle = () => json(`${emu.controlUrl}/deliveries/wait?timeoutMs=10000`, "POST");

  it("an API event POSTs a signed notification to the active template only", async () => {
    const rx = await receiver();
    servers.push(rx.server);
    const t = await activeTemplate("101", rx.url);
    const inactive = await httpCall(emu.baseUrl, SVC, "clone", {
      ks,
      id: "101",
      "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
      "eventNotificationTemplate[name]": "inactive",
      "eventNotificationTemplate[url]": rx.url,
    });
    const entry = await httpCall(emu.baseUrl, "baseEntry", "add", { ks, "entry[name]": "my clip" });
    expect(await waitIdle()).toMatchObject({ idle: true });
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0]!;
    expect(got.headers["content-type"]).toBe("application/json");
    const expected = createHash("sha256").update(`whsec-test-1234${got.body}`).digest("hex");
    expect(got.headers["x-svc-signature"]).toBe(expected);
    const n = JSON.parse(got.body);
    expect(n).toMatchObject({
      eventType: "2",
      eventObjectType: "1",
      templateId: t.id,
      templateName: t.name,
      templateSystemName: t.systemName,
      objectType: "SvcHttpNotification",
      partnerId: PARTNER_ID,
    });
    expect(n.object).toMatchObject({ id: entry.id, name: "my clip", objectType: "SvcMediaEntry" });
    expect(Number.isInteger(n.eventNotificationJobId)).toBe(true);
    const log = await json(`${emu.controlUrl}/deliveries?templateId=${t.id}`);
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]).toMatchObject({ state: "delivered", delivered: true, statusCodes: [200], jobId: n.eventNotificationJobId });
    expect((await json(`${emu.controlUrl}/deliveries?templateId=${inactive.id}`)).deliveries).toHaveLength(0);
  });

  it("a 500 is retried with backoff until a 200", async () => {
    const rx = await receiver([500, 503]);
    servers.push(rx.server);
    const t = await activeTemplate("104", rx.url);
    const fired = await json(`${emu.controlUrl}/trigger`, "POST", { event: "entry.deleted", object: { id: "0_abc", name: "gone" } });
    expect(fired.deliveryIds).toHaveLength(1);
    await waitIdle();
    expect(rx.received).toHaveLength(3);
    expect(new Set(rx.received.map((r) => r.body)).size).toBe(1); // same job, same payload on every attempt
    const d = (await json(`${emu.controlUrl}/deliveries?templateId=${t.id}`)).deliveries[0];
    expect(d).toMatchObject({ state: "delivered", statusCodes: [500, 503, 200] });
  });

  it("gives up after maxAttempts; a refused connection counts as a failed attempt", async () => {
    const rx = await receiver();
    servers.push(rx.server);
    const deadUrl = rx.url;
    await new Promise<void>((r) => rx.server.close(() => r()));
    const t = await activeTemplate("106", deadUrl);
    await json(`${emu.controlUrl}/trigger`, "POST", { event: "metadata.changed" });
    await waitIdle();
    const d = (await json(`${emu.controlUrl}/deliveries?templateId=${t.id}`)).deliveries[0];
    expect(d.state).toBe("failed");
    expect(d.attempts).toHaveLength(3);
    expect(d.attempts[0].error).toBeTruthy();
    expect(d.payload.object.objectType).toBe("SvcMetadata");
  });

  it("the API answers while a receiver is still holding the delivery", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let arrived!: () => void;
    const arrival = new Promise<void>((r) => (arrived = r));
    const slow = createServer((req, res) => {
      req.resume();
      arrived();
      void held.then(() => res.end());
    });
    servers.push(slow);
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    await activeTemplate("101", `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`);
    const entry = await httpCall(emu.baseUrl, "baseEntry", "add", { ks, "entry[name]": "not blocked" });
    expect(entry.objectType).toBe("SvcMediaEntry");
    await arrival; // the delivery is in flight now, and the API already answered
    const inFlight = (await json(`${emu.controlUrl}/deliveries`)).deliveries;
    expect(inFlight[0]).toMatchObject({ state: "pending", attempts: [] });
    release();
    await waitIdle();
    expect((await json(`${emu.controlUrl}/deliveries`)).deliveries[0].state).toBe("delivered");
  });

  it("trigger rejects unknown events and lists the known ones", async () => {
    const res = await request(`${emu.controlUrl}/trigger`, { method: "POST", body: JSON.stringify({ event: "entry.exploded" }) });
    expect(res.statusCode).toBe(400);
    expect(await res.body.text()).toContain("entry.added");
  });

  it("without a signSecret of its own a template signs with the admin secret; SHA1 when asked", async () => {
    const rx = await receiver();
    servers.push(rx.server);
    await activeTemplate("107", rx.url, { "eventNotificationTemplate[signSecret]": "", "eventNotificationTemplate[secureHashingAlgo]": 1 });
    await json(`${emu.controlUrl}/trigger`, "POST", { event: "category.user_added" });
    await waitIdle();
    const got = rx.received[0]!;
    expect(got.headers["x-svc-signature"]).toBe(
      createHash("sha1")
        .update(ADMIN_SECRET + got.body)
        .digest("hex"),
    );
  });
});
