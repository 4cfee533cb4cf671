/**
 * Issue 19, the webhook edge: replays (the same eventNotificationJobId) are not handed to the callback again within
 * the window, with a pluggable store; the accepted algorithms can be pinned; the simple forms verify every
 * algorithm; maxBodyBytes is validated; the sdk's template clone requires a signSecret.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  MemoryReplayStore,
  SvcValidationError,
  createWebhookHandler,
  verifySignature,
  webhookMiddleware,
  type Notification,
  type ReplayStore,
} from "../../sdk";
import { processWebhook, type WebhookOptions } from "../../sdk/webhooks";
import { harness } from "./helpers";
import { delivery } from "./webhookDelivery";

const SECRET = "whsec-edge-test-secret";
const signWith = (algorithm: string, body: string) => createHash(algorithm).update(SECRET).update(body).digest("hex");
const send = (options: WebhookOptions, body: string, algorithm = "sha256", named = true) =>
  processWebhook(Buffer.from(body), named ? { signature: signWith(algorithm, body), algorithm } : signWith(algorithm, body), options);

describe("replay protection by job id", () => {
  it("a job delivered again is answered 200 without calling the callback again", async () => {
    const seen: number[] = [];
    const options: WebhookOptions = { secret: SECRET, onEvent: (n) => void seen.push(n.eventNotificationJobId) };
    expect(await send(options, delivery(1))).toEqual({ status: 200, body: { ok: true } });
    expect(await send(options, delivery(1))).toEqual({ status: 200, body: { ok: true, duplicate: true } });
    expect(await send(options, delivery(2))).toEqual({ status: 200, body: { ok: true } });
    expect(seen).toEqual([1, 2]);
  });

  it("a job whose callback failed is processed on the platform's next attempt (at-least-once)", async () => {
    let calls = 0;
    const options: WebhookOptions = {
      secret: SECRET,
      onEvent: () => {
        calls++;
        if (calls === 1) throw new Error("db down");
      },
    };
    expect((await send(options, delivery(5))).status).toBe(500);
    expect(await send(options, delivery(5))).toEqual({ status: 200, body: { ok: true } });
    expect(calls).toBe(2);
  });

  it("a repeat while the first attempt is still being processed gets 409 (the sender retries later)", async () => {
    let finish: () => void = () => undefined;
    const options: WebhookOptions = { secret: SECRET, onEvent: () => new Promise<void>((resolve) => (finish = resolve)) };
    const first = send(options, delivery(9));
    await new Promise((r) => setImmediate(r));
    expect((await send(options, delivery(9))).status).toBe(409);
    finish();
    expect((await first).status).toBe(200);
  });

  it("the window ends; a pluggable store is used; replay: false turns it off", async () => {
    let now = 1_000;
    const store = new MemoryReplayStore(10, () => now);
    const seen: number[] = [];
    const options: WebhookOptions = { secret: SECRET, replay: { store, windowMs: 60_000 }, onEvent: (n) => void seen.push(n.eventNotificationJobId) };
    await send(options, delivery(3));
    now += 59_999;
    await send(options, delivery(3));
    now += 2;
    await send(options, delivery(3));
    expect(seen).toEqual([3, 3]);

    const claims: string[] = [];
    const shared: ReplayStore = {
      claim: (key) => (claims.push(key), claims.filter((k) => k === key).length === 1 ? "claimed" : "duplicate"),
      complete: () => undefined,
      release: () => undefined,
    };
    const viaStore: WebhookOptions = { secret: SECRET, replay: { store: shared }, onEvent: () => undefined };
    expect((await send(viaStore, delivery(4))).body).toEqual({ ok: true });
    expect((await send(viaStore, delivery(4))).body).toEqual({ ok: true, duplicate: true });
    expect(claims).toEqual(["4", "4"]);

    const off: number[] = [];
    const noReplay: WebhookOptions = { secret: SECRET, replay: false, onEvent: (n) => void off.push(n.eventNotificationJobId) };
    await send(noReplay, delivery(6));
    await send(noReplay, delivery(6));
    expect(off).toEqual([6, 6]);
  });

  it("the in-memory store stays bounded", () => {
    const store = new MemoryReplayStore(3, () => 0);
    for (const key of ["a", "b", "c", "d", "e"]) expect(store.claim(key, 1000)).toBe("claimed");
    expect(store.size).toBe(3);
    expect(store.claim("e", 1000)).toBe("in-progress");
    store.complete("e", 1000);
    expect(store.claim("e", 1000)).toBe("duplicate");
    expect(store.claim("a", 1000)).toBe("claimed");
  });
});

describe("algorithms", () => {
  it("pinned algorithms: a delivery signed with another is 401", async () => {
    const options: WebhookOptions = { secret: SECRET, algorithms: ["sha512"], onEvent: () => undefined };
    expect((await send(options, delivery(10), "sha256")).status).toBe(401);
    expect((await send(options, delivery(10), "sha1")).status).toBe(401);
    expect((await send(options, delivery(11), "sha512")).status).toBe(200);
    expect(verifySignature(delivery(1), signWith("sha1", delivery(1)), SECRET, "sha1", { accept: ["sha256"] })).toBe(false);
  });

  it("the simple forms (signature only) verify every algorithm the platform uses, when accepted", async () => {
    const body = delivery(12);
    const all = ["sha1", "sha256", "sha512"] as const;
    for (const algorithm of all) expect(verifySignature(body, signWith(algorithm, body), SECRET, undefined, { accept: all })).toBe(true);
    const options: WebhookOptions = { secret: SECRET, algorithms: all, replay: false, onEvent: () => undefined };
    for (const algorithm of ["sha1", "sha256", "sha512"]) expect((await send(options, body, algorithm, false)).status).toBe(200);
    expect(verifySignature(body, createHash("md5").update(SECRET).update(body).digest("hex"), SECRET)).toBe(false);
  });
});

describe("options are validated", () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "1mb"])("maxBodyBytes %s is refused, naming the option", (maxBodyBytes) => {
    const options = { secret: SECRET, maxBodyBytes, onEvent: () => undefined } as unknown as WebhookOptions;
    expect(() => createWebhookHandler(options)).toThrow(/"maxBodyBytes"/);
    expect(() => webhookMiddleware(options)).toThrow(/"maxBodyBytes"/);
  });

  it("algorithms and replay settings are checked too", () => {
    const base = { secret: SECRET, onEvent: (_n: Notification) => undefined };
    expect(() => createWebhookHandler({ ...base, algorithms: [] })).toThrow(/"algorithms"/);
    expect(() => createWebhookHandler({ ...base, algorithms: ["md5" as never] })).toThrow(/"algorithms"/);
    expect(() => createWebhookHandler({ ...base, replay: { windowMs: -5 } })).toThrow(/"replay.windowMs"/);
    expect(() => createWebhookHandler({ ...base, replay: { store: {} as never } })).toThrow(/"replay.store"/);
  });
});

describe("the sdk's template clone requires a signSecret", () => {
  it("refuses a clone without one (or with an empty one) before any call", async () => {
    const { client, events } = harness();
    try {
      const missing = await client.templates.clone("3", { name: "hook", url: "https://x.example/h" } as never).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(SvcValidationError);
      expect((missing as Error).message).toMatch(/signSecret is required/);
      await expect(client.templates.clone("3", { name: "hook", url: "https://x.example/h", signSecret: "" })).rejects.toThrow(/signSecret/);
      await expect(client.templates.update("3", { signSecret: "" })).rejects.toThrow(/signSecret/);
      expect(events).toHaveLength(0);
    } finally {
      await client.close();
    }
  });
});
