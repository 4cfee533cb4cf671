/**
 * Transport: retry rule, Retry-After, timeouts, cancellation. Unit tests use undici's MockAgent with
 * disableNetConnect (nock 15 answers undici's plain replies but hangs on replyWithError, see docs/sdk.md);
 * connection-level cases (refused port, silent server) use real loopback sockets on port 0.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MockAgent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { SvcAbortError, SvcNetworkError, SvcTimeoutError, type TransportEvent } from "../../sdk";
import { createTransport } from "../../sdk/transport";

const ORIGIN = "http://127.0.0.1:9999";
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function mocked(extra: Parameters<typeof createTransport>[0] = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const events: TransportEvent[] = [];
  const transport = createTransport({
    dispatcher: agent,
    retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 5 },
    onEvent: (e) => events.push(e),
    ...extra,
  });
  return { agent, pool: agent.get(ORIGIN), transport, events };
}

const connError = (code: string) => Object.assign(new Error(`simulated ${code}`), { code });

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("retry rule", () => {
  it("retries an idempotent call on 503 and 429, then returns the success", async () => {
    const { pool, transport, events } = mocked();
    pool.intercept({ path: "/r", method: "POST" }).reply(503, "busy");
    pool.intercept({ path: "/r", method: "POST" }).reply(429, "slow down", { headers: { "retry-after": "0" } });
    pool.intercept({ path: "/r", method: "POST" }).reply(200, "ok");
    const res = await transport.request({ url: `${ORIGIN}/r`, idempotent: true, service: "s", action: "get" });
    expect(res).toMatchObject({ status: 200, body: "ok", attempts: 3 });
    expect(events.map((e) => e.type)).toEqual(["request", "response", "retry", "request", "response", "retry", "request", "response"]);
    expect(events[2]).toMatchObject({ type: "retry", service: "s", action: "get", attempt: 1, status: 503 });
  });

  it("honours Retry-After, capped by maxRetryAfterMs", async () => {
    const { pool, transport, events } = mocked();
    pool.intercept({ path: "/r", method: "POST" }).reply(429, "", { headers: { "retry-after": "120" } });
    pool.intercept({ path: "/r", method: "POST" }).reply(200, "ok");
    await transport.request({ url: `${ORIGIN}/r`, idempotent: true });
    const retry = events.find((e) => e.type === "retry");
    expect(retry).toMatchObject({ delayMs: 5, reason: "status 429" });
  });

  it("stops after maxRetries and returns the last answer", async () => {
    const { pool, transport } = mocked();
    pool.intercept({ path: "/r", method: "POST" }).reply(502, "bad gateway").times(3);
    const res = await transport.request({ url: `${ORIGIN}/r`, idempotent: true, maxRetries: 2 });
    expect(res).toMatchObject({ status: 502, attempts: 3 });
  });

  it("never repeats a create that got a status back (the server saw it)", async () => {
    const { pool, transport } = mocked();
    pool.intercept({ path: "/c", method: "POST" }).reply(503, "busy");
    const res = await transport.request({ url: `${ORIGIN}/c`, idempotent: false });
    expect(res).toMatchObject({ status: 503, attempts: 1 });
  });

  it("never repeats a create after a reset (bytes may have reached the server)", async () => {
    const { pool, transport, events } = mocked();
    pool.intercept({ path: "/c", method: "POST" }).replyWithError(connError("ECONNRESET"));
    pool.intercept({ path: "/c", method: "POST" }).reply(200, "duplicate!");
    const error = await transport.request({ url: `${ORIGIN}/c`, idempotent: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcNetworkError);
    expect(error).toMatchObject({ code: "NETWORK_ERROR", errno: "ECONNRESET" });
    expect(events.filter((e) => e.type === "request")).toHaveLength(1);
  });

  it("retries an idempotent call after a reset", async () => {
    const { pool, transport } = mocked();
    pool.intercept({ path: "/r", method: "POST" }).replyWithError(connError("ECONNRESET"));
    pool.intercept({ path: "/r", method: "POST" }).reply(200, "ok");
    expect(await transport.request({ url: `${ORIGIN}/r`, idempotent: true })).toMatchObject({ status: 200, attempts: 2 });
  });

  it("retries a create when the connection was refused (it cannot have been sent)", async () => {
    const { pool, transport } = mocked();
    pool.intercept({ path: "/c", method: "POST" }).replyWithError(connError("ECONNREFUSED"));
    pool.intercept({ path: "/c", method: "POST" }).reply(200, "created");
    expect(await transport.request({ url: `${ORIGIN}/c`, idempotent: false })).toMatchObject({ status: 200, attempts: 2 });
  });

  it("retries a create against a real refused loopback port, then fails with NETWORK_ERROR", async () => {
    const url = await listen((_q, s) => s.end());
    // The port refuses once the server's close has completed (its callback), not after a guessed pause.
    const closed = servers.pop()!;
    await new Promise((r) => closed.close(r));
    const events: TransportEvent[] = [];
    const transport = createTransport({ retry: { baseDelayMs: 1, maxDelayMs: 2 }, onEvent: (e) => events.push(e) });
    const error = await transport.request({ url, idempotent: false, maxRetries: 2 }).catch((e: unknown) => e);
    await transport.close();
    expect(error).toMatchObject({ code: "NETWORK_ERROR", errno: "ECONNREFUSED" });
    expect(String((error as Error).message)).toContain("after 3 attempts");
    expect(events.filter((e) => e.type === "retry")).toHaveLength(2);
  });

  it("a throwing onEvent hook does not break the call", async () => {
    const { pool, transport } = mocked({
      onEvent: () => {
        throw new Error("bad hook");
      },
    });
    pool.intercept({ path: "/r", method: "POST" }).reply(200, "ok");
    expect((await transport.request({ url: `${ORIGIN}/r`, idempotent: true })).status).toBe(200);
  });
});

describe("timeouts and cancellation", () => {
  it("a create that timed out waiting for headers is not repeated", async () => {
    let seen = 0;
    const url = await listen(() => {
      seen++; // never answers
    });
    const transport = createTransport({ headersTimeoutMs: 100, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    const error = await transport.request({ url, idempotent: false, maxRetries: 3 }).catch((e: unknown) => e);
    await transport.close();
    expect(error).toBeInstanceOf(SvcTimeoutError);
    expect((error as Error).message).toContain("UND_ERR_HEADERS_TIMEOUT");
    expect(seen).toBe(1);
  });

  it("a read that timed out waiting for headers is retried", async () => {
    let seen = 0;
    const url = await listen((_req, res) => {
      if (++seen === 2) res.end("late but fine");
    });
    const transport = createTransport({ headersTimeoutMs: 100, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    const res = await transport.request({ url, idempotent: true });
    await transport.close();
    expect(res).toMatchObject({ status: 200, body: "late but fine", attempts: 2 });
  });

  it("the overall deadline ends the call with TIMEOUT", async () => {
    const url = await listen(() => undefined);
    const transport = createTransport();
    const error = await transport.request({ url, idempotent: true, timeoutMs: 100 }).catch((e: unknown) => e);
    await transport.close();
    expect(error).toBeInstanceOf(SvcTimeoutError);
    expect(error).toMatchObject({ code: "TIMEOUT" });
  });

  it("an AbortSignal cancels the call with ABORTED", async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((r) => (arrived = r));
    const url = await listen(() => arrived());
    const transport = createTransport();
    const controller = new AbortController();
    const pending = transport.request({ url, idempotent: true, signal: controller.signal });
    // Abort once the server holds the request: the call is in flight, not yet sent or already answered.
    await requestArrived;
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    await transport.close();
    expect(error).toBeInstanceOf(SvcAbortError);
    // Cut while the server held the request: the platform may still act on it.
    expect(error).toMatchObject({ code: "ABORTED", requestOnWire: true });
  });

  it("a create cancelled while it waits out a 429's Retry-After ends with nothing on the wire", async () => {
    const controller = new AbortController();
    const { pool, transport } = mocked({
      retry: { maxRetryAfterMs: 60_000 },
      onEvent: (e) => {
        if (e.type === "retry") queueMicrotask(() => controller.abort());
      },
    });
    pool.intercept({ path: "/r", method: "POST" }).reply(429, "slow down", { headers: { "retry-after": "600" } });
    const error = await transport.request({ url: `${ORIGIN}/r`, idempotent: false, timeoutMs: 120_000, signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcAbortError);
    // Every request it sent was answered (429: the platform did not act): nothing of this call can still commit.
    expect(error).toMatchObject({ code: "ABORTED", requestOnWire: false });
  });

  it("cancelling during a backoff wait ends the call", async () => {
    const controller = new AbortController();
    // The retry event comes right before the 10 s wait starts; aborting in the next microtask lands inside it.
    // (No second reply is mocked: a wait that ran out would end with another error, not ABORTED.)
    const { pool, transport, events } = mocked({
      retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 },
      random: () => 0.99,
      onEvent: (e) => {
        events.push(e);
        if (e.type === "retry") queueMicrotask(() => controller.abort());
      },
    });
    pool.intercept({ path: "/r", method: "POST" }).reply(503, "busy");
    const pending = transport.request({ url: `${ORIGIN}/r`, idempotent: true, signal: controller.signal });
    // The 503 was an answer: nothing of the call is left on the wire.
    await expect(pending).rejects.toMatchObject({ code: "ABORTED", requestOnWire: false });
    expect(events.map((e) => e.type)).toEqual(["request", "response", "retry"]);
  });

  it("cancelled during the backoff after a lost answer: that request still counts as unanswered", async () => {
    const controller = new AbortController();
    const { pool, transport } = mocked({
      retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 },
      random: () => 0.99,
      onEvent: (e) => {
        if (e.type === "retry") queueMicrotask(() => controller.abort());
      },
    });
    pool.intercept({ path: "/r", method: "POST" }).replyWithError(connError("ECONNRESET"));
    const pending = transport.request({ url: `${ORIGIN}/r`, idempotent: true, signal: controller.signal });
    // The reset may have come after the platform acted: it may still act on that request.
    await expect(pending).rejects.toMatchObject({ code: "ABORTED", requestOnWire: true });
  });

  it("a closed transport refuses calls with CLIENT_CLOSED", async () => {
    const { transport } = mocked();
    await transport.close();
    await expect(transport.request({ url: `${ORIGIN}/r`, idempotent: true })).rejects.toMatchObject({ code: "CLIENT_CLOSED" });
  });
});
