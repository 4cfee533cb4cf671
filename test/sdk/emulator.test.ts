/** Integration: every sdk operation against the emulator on a port-0 socket (the sdk is unchanged for the real platform). */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { AppToken, createWebhookHandler, SvcApiError, SvcClient, type Notification, type SvcClientOptions } from "../../sdk";

let emu: RunningEmulator;
const clients: SvcClient[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await emu?.close();
});

function client(auth?: SvcClientOptions["auth"], extra: Partial<SvcClientOptions> = {}): SvcClient {
  const c = new SvcClient({
    baseUrl: emu.baseUrl,
    partnerId: emu.partnerId,
    auth: auth ?? { adminSecret: emu.adminSecret },
    retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5 },
    ...extra,
  });
  clients.push(c);
  return c;
}

async function control(path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(
    `${emu.controlUrl}${path}`,
    body === undefined ? {} : { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } },
  );
  return res.json();
}

describe("app tokens", () => {
  it("add, get, list, iterate, update, delete", async () => {
    const admin = client();
    const created = await admin.appTokens.add({ hashType: "SHA256", sessionType: 0, description: "ci", sessionPrivileges: "disableentitlement" });
    expect(created).toMatchObject({ hashType: "SHA256", status: 2, description: "ci", objectType: "SvcAppToken" });
    expect(created.token).toMatch(/^[0-9a-f]{64}$/);

    expect(await admin.appTokens.get(created.id)).toMatchObject({ id: created.id, token: created.token });
    const listed = await admin.appTokens.list({ idEqual: created.id });
    expect(listed.objects.map((t) => t.id)).toEqual([created.id]);

    const more = await Promise.all([1, 2, 3].map((n) => admin.appTokens.add({ hashType: "SHA1", description: `bulk-${n}` })));
    const all = await admin.appTokens.iterate({ statusEqual: 2 }, { pageSize: 2 }).toArray();
    expect(all.map((t) => t.id)).toEqual(expect.arrayContaining([created.id, ...more.map((t) => t.id)]));
    expect(await admin.appTokens.iterate({}, { pageSize: 2 }).toArray({ limit: 3 })).toHaveLength(3);

    expect(await admin.appTokens.update(created.id, { description: "renamed", sessionDuration: 600 })).toMatchObject({
      description: "renamed",
      sessionDuration: 600,
    });
    await admin.appTokens.delete(created.id);
    await expect(admin.appTokens.get(created.id)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND", args: { ID: created.id } });
  });

  it("a pipeline authenticates with an app token (widget session + startSession)", async () => {
    const admin = client();
    const token = await admin.appTokens.add({ hashType: "SHA512", sessionType: 2, sessionPrivileges: "disableentitlement" });
    const pipeline = client({ appTokenId: token.id, appToken: token.token as string, hashType: "SHA512" });
    expect((await pipeline.templates.listTemplates({ typeEqual: "httpNotification.Http" })).totalCount).toBeGreaterThan(0);
    expect(pipeline.sessions.current()?.expiresAt).toBeGreaterThan(Date.now());

    const wrong = client({ appTokenId: token.id, appToken: "b".repeat(128), hashType: "SHA512" });
    await expect(wrong.templates.listTemplates()).rejects.toMatchObject({ code: "INVALID_APP_TOKEN_HASH" });
  });
});

describe("sessions", () => {
  it("concurrent first calls share one session.start (single-flight) and the session is cached", async () => {
    await control("/stats/reset", {});
    const admin = client();
    await Promise.all(Array.from({ length: 8 }, () => admin.templates.listTemplates()));
    await admin.templates.listTemplates();
    const stats = (await (await fetch(`${emu.controlUrl}/stats`)).json()) as Record<string, number>;
    expect(stats["session.start"]).toBe(1);
  });

  it("a ks ended behind the client's back (INVALID_KS) is renewed once and the call succeeds", async () => {
    const admin = client();
    const first = await admin.sessions.start();
    await admin.sessions.service.end(first.ks);
    await expect(admin.appTokens.list()).resolves.toMatchObject({ objectType: "SvcAppTokenListResponse" });
    expect(admin.sessions.current()?.ks).not.toBe(first.ks);
  });

  it("sessions.end ends the session; a given ks works until it is ended, then fails with SESSION_ERROR", async () => {
    const admin = client();
    const handle = await admin.sessions.start();
    const given = client({ ks: handle.ks });
    await expect(given.appTokens.list()).resolves.toMatchObject({ objectType: "SvcAppTokenListResponse", objects: expect.any(Array) });
    await admin.sessions.end();
    expect(admin.sessions.current()).toBeUndefined();
    await expect(given.appTokens.list()).rejects.toMatchObject({ code: "SESSION_ERROR" });
  });

  it("a wrong admin secret fails with START_SESSION_ERROR", async () => {
    const bad = client({ adminSecret: "definitely-not-the-secret" });
    await expect(bad.appTokens.list()).rejects.toMatchObject({ name: "SvcApiError", code: "START_SESSION_ERROR" });
  });
});

describe("templates and webhooks", () => {
  let receiver: Server;
  let receiverUrl: string;
  const received: Notification[] = [];
  const signSecret = "whsec-integration-0123456789";

  beforeAll(async () => {
    receiver = createServer(createWebhookHandler({ secret: signSecret, onEvent: (event) => void received.push(event) }));
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  it("listTemplates, clone, get, list, update, updateStatus, a signed delivery, delete", async () => {
    const admin = client();
    const system = await admin.templates.listTemplates({ typeEqual: "httpNotification.Http" });
    const entryAdded = system.objects.find((t) => t.systemName === "HTTP_ENTRY_ADDED");
    expect(entryAdded).toBeDefined();

    const clone = await admin.templates.clone(entryAdded!.id, {
      name: "ci hook",
      systemName: "ci_hook",
      url: receiverUrl,
      method: 2,
      signSecret,
      secureHashingAlgo: 2,
    });
    expect(clone).toMatchObject({ name: "ci hook", url: receiverUrl, status: 1 });
    expect(await admin.templates.get(clone.id)).toMatchObject({ id: clone.id });
    expect((await admin.templates.list({ idEqual: clone.id })).objects).toHaveLength(1);
    expect(await admin.templates.iterate({ idEqual: clone.id }).toArray()).toHaveLength(1);
    expect(await admin.templates.update(clone.id, { name: "ci hook 2" })).toMatchObject({ name: "ci hook 2" });
    expect(await admin.templates.updateStatus(clone.id, 2)).toMatchObject({ status: 2 });

    await control("/trigger", { event: "entry.added" });
    await control("/deliveries/wait?timeoutMs=10000", {});
    expect(received.some((n) => n.templateId === clone.id && n.eventType === "2")).toBe(true);

    await admin.templates.delete(clone.id);
    await expect(admin.templates.get(clone.id)).rejects.toMatchObject({ code: "EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND" });
  });
});

describe("multirequest and faults", () => {
  it("multirequest returns each slot's value or error", async () => {
    const admin = client();
    const token = await admin.appTokens.add({ description: "mr" });
    const results = await admin.multirequest([
      { service: "appToken", action: "get", params: { id: token.id }, schema: AppToken },
      { service: "appToken", action: "get", params: { id: "0_missing" } },
    ]);
    expect(results[0]).toMatchObject({ ok: true, value: { id: token.id } });
    expect(results[1]).toMatchObject({ ok: false });
    expect((results[1] as { error: unknown }).error).toBeInstanceOf(SvcApiError);
  });

  it("a read survives injected 503/429/dropped connections; an add is not repeated after a 503", async () => {
    const admin = client();
    await admin.sessions.start();
    await control("/faults", { next: ["error", "throttle", "drop"], retryAfterSeconds: 0, pathIncludes: "/service/appToken/action/list" });
    await expect(admin.appTokens.list()).resolves.toMatchObject({ objectType: "SvcAppTokenListResponse" });
    expect(await (await fetch(`${emu.controlUrl}/faults`)).json()).toMatchObject({ injected: { error: 1, throttle: 1, drop: 1 } });

    const before = (await admin.appTokens.list({}, { pageSize: 500 })).totalCount;
    await control("/faults", { next: ["error"], pathIncludes: "/service/appToken/action/add" });
    await expect(admin.appTokens.add({ description: "once" })).rejects.toMatchObject({ code: "HTTP_ERROR", status: 503 });
    expect((await admin.appTokens.list({}, { pageSize: 500 })).totalCount).toBe(before);
    await control("/faults", {});
  });
});
