/**
 * The retry rules table (RETRY_RULES, ACTION_CLASSES) as it acts on the wire: 429 is retried for creates too,
 * session starts are retried on every transient failure, ambiguous create failures are left to the caller's recovery
 * (mayHaveActed tells which), and the client-wide gate limits requests in flight and pauses everyone after a 429.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SvcClient, SvcHttpError, SvcNetworkError, SvcTimeoutError } from "../../sdk";
import { createTransport, mayHaveActed, RETRY_RULES } from "../../sdk/transport";
import { ACTION_CLASSES, isIdempotentAction } from "../../sdk/platform/actionSafety";
import { createRequestGate } from "../../sdk/transport/requestGate";
import { ADMIN_SECRET, appTokenJson, harness, PARTNER_ID } from "./helpers";

const P = "/api_v3/service/appToken/action";
const START = "/api_v3/service/session/action/start";
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe("the retry rules table", () => {
  it("has one row per kind of failure, each with its decision for both classes and a reason", () => {
    expect(RETRY_RULES.map((r) => r.failure)).toEqual(["notSent", "throttled", "maybeActedStatus", "maybeActedError", "final"]);
    for (const rule of RETRY_RULES) expect(rule.reason.length).toBeGreaterThan(20);
    expect(RETRY_RULES.find((r) => r.failure === "throttled")).toMatchObject({ idempotent: true, create: true });
    expect(RETRY_RULES.find((r) => r.failure === "maybeActedStatus")).toMatchObject({ idempotent: true, create: false });
  });

  it("session starts are idempotent, add and clone are creates, unknown actions are creates", () => {
    for (const action of ["start", "startWidgetSession", "startSession", "get", "list", "update", "updateStatus", "delete", "end"]) {
      expect(isIdempotentAction(action)).toBe(true);
    }
    for (const action of ["add", "clone", "somethingNew", "constructor", "toString"]) expect(isIdempotentAction(action)).toBe(false);
    for (const entry of Object.values(ACTION_CLASSES)) expect(entry.reason).toBeTruthy();
  });

  it("mayHaveActed: lost answers, timeouts and 5xx may have acted; 429, refused connections and 4xx did not", () => {
    expect(mayHaveActed(new SvcNetworkError("x", { errno: "UND_ERR_SOCKET" }))).toBe(true);
    expect(mayHaveActed(new SvcNetworkError("x", { errno: "ECONNRESET" }))).toBe(true);
    expect(mayHaveActed(new SvcTimeoutError("x"))).toBe(true);
    expect(mayHaveActed(new SvcHttpError(502, "x"))).toBe(true);
    expect(mayHaveActed(new SvcHttpError(503, "x"))).toBe(true);
    expect(mayHaveActed(new SvcHttpError(429, "x"))).toBe(false);
    expect(mayHaveActed(new SvcHttpError(404, "x"))).toBe(false);
    expect(mayHaveActed(new SvcNetworkError("x", { errno: "ECONNREFUSED" }))).toBe(false);
    expect(mayHaveActed(new Error("plain"))).toBe(false);
  });
});

describe("retries on the wire", () => {
  it("a create that got 429 is retried after Retry-After (the platform did not act)", async () => {
    const { pool, client, events } = harness();
    pool.intercept({ path: `${P}/add`, method: "POST" }).reply(429, "slow down", { headers: { "retry-after": "0" } });
    pool.intercept({ path: `${P}/add`, method: "POST" }).reply(200, appTokenJson({ id: "0_made" }));
    expect((await client.appTokens.add({ description: "x" })).id).toBe("0_made");
    expect(events.filter((e) => e.type === "retry")).toEqual([expect.objectContaining({ action: "add", status: 429 })]);
  });

  it("a create that got 503 is not repeated, and the error says it may have acted", async () => {
    const { pool, client } = harness();
    pool.intercept({ path: `${P}/add`, method: "POST" }).reply(503, "busy");
    const error = await client.appTokens.add({}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "HTTP_ERROR", status: 503 });
    expect(mayHaveActed(error)).toBe(true);
  });

  it("session.start is retried on 503 and on a dropped connection, so one blip does not fail every waiting call", async () => {
    const { pool, client } = harness({ auth: { adminSecret: ADMIN_SECRET } });
    pool.intercept({ path: START, method: "POST" }).reply(503, "busy");
    pool.intercept({ path: START, method: "POST" }).replyWithError(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }));
    pool.intercept({ path: START, method: "POST" }).reply(200, JSON.stringify("djJ8minted-after-two-faults-abc"));
    pool.intercept({ path: `${P}/list`, method: "POST" }).reply(200, { objects: [], totalCount: 0, objectType: "SvcAppTokenListResponse" });
    await expect(client.appTokens.list()).resolves.toMatchObject({ totalCount: 0 });
  });

  it("startWidgetSession and appToken.startSession are retried on 502", async () => {
    const { pool, client } = harness({ auth: { appTokenId: "0_tok", appToken: "a".repeat(64) } });
    const widget = "/api_v3/service/session/action/startWidgetSession";
    pool.intercept({ path: widget, method: "POST" }).reply(502, "bad gateway");
    pool
      .intercept({ path: widget, method: "POST" })
      .reply(200, { ks: "djJ8widget-session-abcdefghij", partnerId: PARTNER_ID, userId: "0", objectType: "SvcStartWidgetSessionResponse" });
    pool.intercept({ path: `${P}/startSession`, method: "POST" }).reply(502, "bad gateway");
    pool
      .intercept({ path: `${P}/startSession`, method: "POST" })
      .reply(200, { ks: "djJ8app-session-abcdefghijklm", expiry: 0, sessionType: 0, partnerId: PARTNER_ID, userId: "", objectType: "SvcSessionInfo" });
    pool.intercept({ path: `${P}/list`, method: "POST" }).reply(200, { objects: [], totalCount: 0, objectType: "SvcAppTokenListResponse" });
    await expect(client.appTokens.list()).resolves.toMatchObject({ totalCount: 0 });
  });
});

describe("the client-wide gate", () => {
  it("never lets more than maxConcurrency requests in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const server = createServer((_req, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight--;
        res.end("ok");
      }, 20);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/r`;
    const transport = createTransport({ maxConcurrency: 3 });
    const results = await Promise.all(Array.from({ length: 20 }, () => transport.request({ url, idempotent: true })));
    await transport.close();
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(peak).toBe(3);
  });

  it("a 429 pauses every request of the client for Retry-After, not only the one that got it", async () => {
    const arrivals: number[] = [];
    let throttled = false;
    const server = createServer((_req, res) => {
      arrivals.push(Date.now());
      if (!throttled) {
        throttled = true;
        res.writeHead(429, { "retry-after": "1" }).end();
        return;
      }
      res.end("ok");
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/r`;
    const transport = createTransport({ maxConcurrency: 1 });
    const first = transport.request({ url, idempotent: false }); // a create: 429 is retried for it too
    const others = Array.from({ length: 3 }, () => transport.request({ url, idempotent: true }));
    const [created] = await Promise.all([first, ...others]);
    await transport.close();
    expect(created).toMatchObject({ status: 200, attempts: 2 });
    // Every request after the 429 arrived at least ~1 s later (the pause), none in between.
    const after = arrivals.slice(1).map((t) => t - (arrivals[0] as number));
    expect(after).toHaveLength(4);
    for (const gap of after) expect(gap).toBeGreaterThanOrEqual(900);
  });

  it("a waiter cancelled while queued leaves the queue and frees nothing it did not hold", async () => {
    const gate = createRequestGate(1);
    const held = await gate.acquire(new AbortController().signal);
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal);
    expect(gate.waiting).toBe(1);
    controller.abort();
    // the waiter ends with the caller's own abort reason, nothing else
    await expect(waiting).rejects.toBe(controller.signal.reason);
    expect(controller.signal.reason).toMatchObject({ name: "AbortError" });
    expect(gate.waiting).toBe(0);
    held();
    held(); // releasing twice is harmless
    expect(gate.inFlight).toBe(0);
  });
});

describe("SvcClient options", () => {
  it("maxConcurrency and attemptTimeoutMs are validated with the field named", () => {
    expect(() => new SvcClient({ baseUrl: "https://x/api_v3", partnerId: 1, auth: { ks: "k" }, maxConcurrency: 0 })).toThrow(/maxConcurrency/);
    expect(() => new SvcClient({ baseUrl: "https://x/api_v3", partnerId: 1, auth: { ks: "k" }, attemptTimeoutMs: -1 })).toThrow(/attemptTimeoutMs/);
  });
});
