/**
 * Issue 23: nothing a peer or a replay store does rejects into the void. A real node:http server runs the handler
 * (and the Express-style middleware); a sender drops its connection mid-body, stores throw or reject at each step.
 * The process-level 'unhandledRejection' and 'uncaughtException' must never fire, every request ends in an answer
 * or a closed socket, and the server still answers the next delivery.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createWebhookHandler, webhookMiddleware, type ReplayStore, type WebhookFailureStage, type WebhookOptions } from "../../sdk";
import { delivery } from "./webhookDelivery";

const SECRET = "whsec-resilience-test-secret";
const sign = (body: string) => createHash("sha256").update(SECRET).update(body).digest("hex");

// Listened for over the whole file: a rejection that escapes shows up here even if it fires between tests.
const escaped: unknown[] = [];
const onEscape = (error: unknown) => void escaped.push(error);
beforeAll(() => {
  process.on("unhandledRejection", onEscape);
  process.on("uncaughtException", onEscape);
});
afterAll(() => {
  process.off("unhandledRejection", onEscape);
  process.off("uncaughtException", onEscape);
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface Served {
  url: string;
  port: number;
  /** One promise per request the server saw, settled when its response closed (answered or socket gone). */
  closed: Promise<{ status: number; finished: boolean }>[];
  /** Resolves when the server has seen `n` requests. */
  seen: (n: number) => Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  expect(escaped.splice(0)).toEqual([]);
});

async function serve(handler: Handler): Promise<Served> {
  const closed: Served["closed"] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    closed.push(new Promise((resolve) => res.on("close", () => resolve({ status: res.statusCode, finished: res.writableFinished }))));
    for (const waiter of waiters.filter((w) => closed.length >= w.n)) waiter.resolve();
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const seen = (n: number) => (closed.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })));
  return { url: `http://127.0.0.1:${port}/hook`, port, closed, seen };
}

async function post(url: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", "x-svc-signature": sign(body) } });
  return { status: res.status, text: await res.text() };
}

/** Sends the headers and half of a signed body on a raw socket, waits until the server has the request, then drops it. */
async function abortMidBody(served: Served, requestsBefore: number): Promise<void> {
  const body = delivery(99);
  const socket = connect(served.port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  socket.write(
    `POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
      `X-SVC-SIGNATURE: ${sign(body)}\r\n\r\n${body.slice(0, body.length / 2)}`,
  );
  await served.seen(requestsBefore + 1);
  socket.destroy();
}

const withMiddleware =
  (options: WebhookOptions): Handler =>
  (req, res) =>
    webhookMiddleware(options)(req, res, (error) => {
      res.statusCode = 599;
      res.end(String(error));
    });

describe.each([
  ["createWebhookHandler", createWebhookHandler],
  ["webhookMiddleware", withMiddleware],
])("%s never rejects into the void", (_name, make) => {
  it("a sender that drops its connection mid-body: the socket is closed, the process lives, the next delivery is answered", async () => {
    const handled: number[] = [];
    const served = await serve(make({ secret: SECRET, onEvent: (event) => void handled.push(event.eventNotificationJobId) }));
    await abortMidBody(served, 0);
    const aborted = await served.closed[0];
    expect(aborted?.finished).toBe(false);
    await abortMidBody(served, 1);
    await served.closed[1];

    expect(await post(served.url, delivery(1))).toEqual({ status: 200, text: '{"ok":true}' });
    expect(handled).toEqual([1]);
  });

  it.each<[string, Partial<ReplayStore>, WebhookFailureStage]>([
    [
      "claim throws",
      {
        claim: () => {
          throw new Error("store down");
        },
      },
      "replay.claim",
    ],
    ["claim rejects", { claim: () => Promise.reject(new Error("store down")) }, "replay.claim"],
    ["claim answers nonsense", { claim: () => true as never }, "replay.claim"],
  ])("%s: 500, reported, the callback not called, the next delivery answered", async (_case, broken, stage) => {
    const handled: number[] = [];
    const stages: WebhookFailureStage[] = [];
    let failing = true;
    const healthy: ReplayStore = { claim: () => "claimed", complete: () => undefined, release: () => undefined };
    const store: ReplayStore = {
      claim: (key, leaseMs) => (failing ? (broken.claim as ReplayStore["claim"])(key, leaseMs) : healthy.claim(key, leaseMs)),
      complete: () => undefined,
      release: () => undefined,
    };
    const served = await serve(
      make({ secret: SECRET, replay: { store }, onEvent: (e) => void handled.push(e.eventNotificationJobId), onError: (_e, c) => void stages.push(c.stage) }),
    );
    expect(await post(served.url, delivery(2))).toEqual({ status: 500, text: '{"error":"internal error"}' });
    expect(handled).toEqual([]);
    expect(stages).toEqual([stage]);
    failing = false;
    expect((await post(served.url, delivery(2))).status).toBe(200);
    expect(handled).toEqual([2]);
  });

  it("complete rejects after the callback succeeded: 200 (the event was handled), the failure reported", async () => {
    const stages: WebhookFailureStage[] = [];
    const store: ReplayStore = { claim: () => "claimed", complete: () => Promise.reject(new Error("disk full")), release: () => undefined };
    const served = await serve(make({ secret: SECRET, replay: { store }, onEvent: () => undefined, onError: (_e, c) => void stages.push(c.stage) }));
    expect(await post(served.url, delivery(3))).toEqual({ status: 200, text: '{"ok":true}' });
    expect(stages).toEqual(["replay.complete"]);
    expect((await post(served.url, delivery(4))).status).toBe(200);
  });

  it("release throws after the callback failed: 500, both failures reported, an onError that throws changes nothing", async () => {
    const stages: WebhookFailureStage[] = [];
    const store: ReplayStore = {
      claim: () => "claimed",
      complete: () => undefined,
      release: () => {
        throw new Error("store down");
      },
    };
    const options: WebhookOptions = {
      secret: SECRET,
      replay: { store },
      onEvent: (event) => {
        if (event.eventNotificationJobId === 5) throw new Error("db down");
      },
      onError: (_e, c) => {
        stages.push(c.stage);
        throw new Error("the reporter is broken too");
      },
    };
    const served = await serve(make(options));
    expect(await post(served.url, delivery(5))).toEqual({ status: 500, text: '{"error":"internal error"}' });
    expect(stages).toEqual(["onEvent", "replay.release"]);
    expect((await post(served.url, delivery(6))).status).toBe(200);
  });
});
