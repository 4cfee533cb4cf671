/** Webhook receivers: signature check on the raw body, 401/413/400/200/500, node:http and Express-style. */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { computeSignature, createWebhookHandler, verifySignature, webhookMiddleware, type Notification, type WebhookOptions } from "../../sdk";

const SECRET = "whsec-unit-test-secret";
const sign = (body: string | Buffer, secret = SECRET) =>
  createHash("sha256")
    .update(Buffer.concat([Buffer.from(secret), Buffer.from(body)]))
    .digest("hex");
const notification = {
  object: { id: "0_entry", objectType: "SvcMediaEntry" },
  eventType: "2",
  eventObjectType: "1",
  eventNotificationJobId: 7,
  templateId: "12",
  templateName: "hook",
  objectType: "SvcHttpNotification",
};

describe("verifySignature", () => {
  const body = JSON.stringify(notification);
  it("accepts the right signature, lower or upper case, as string or Buffer", () => {
    expect(verifySignature(body, sign(body), SECRET)).toBe(true);
    expect(verifySignature(Buffer.from(body), sign(body).toUpperCase(), SECRET)).toBe(true);
  });
  it("rejects a missing, malformed, wrong-secret or other-body signature", () => {
    expect(verifySignature(body, undefined, SECRET)).toBe(false);
    expect(verifySignature(body, "abc", SECRET)).toBe(false);
    expect(verifySignature(body, sign(body, "other-secret"), SECRET)).toBe(false);
    expect(verifySignature(`${body} `, sign(body), SECRET)).toBe(false);
    expect(verifySignature(body, sign(body), "")).toBe(false);
  });
});

describe("verifySignature with X-SVC-HASH-ALGO", () => {
  const body = JSON.stringify(notification);
  const signWith = (algorithm: string, secret = SECRET) => createHash(algorithm).update(secret).update(body).digest("hex");
  const all = { accept: ["sha1", "sha256", "sha512"] as const };
  it.each(["sha1", "sha256", "sha512"])("%s (all accepted): accepts its own signature, refuses the other algorithms'", (algorithm) => {
    expect(verifySignature(body, signWith(algorithm), SECRET, algorithm, all)).toBe(true);
    expect(verifySignature(body, signWith(algorithm), SECRET, algorithm.toUpperCase(), all)).toBe(true);
    expect(verifySignature(body, signWith(algorithm, "other-secret"), SECRET, algorithm, all)).toBe(false);
    for (const other of ["sha1", "sha256", "sha512"].filter((a) => a !== algorithm)) {
      expect(verifySignature(body, signWith(other), SECRET, algorithm, all)).toBe(false);
    }
  });
  it("without the header the signature's length names the algorithm; SHA1 only when accepted; an unknown one is refused", () => {
    expect(verifySignature(body, signWith("sha256"), SECRET)).toBe(true);
    expect(verifySignature(body, signWith("sha512"), SECRET)).toBe(true);
    expect(verifySignature(body, signWith("sha1"), SECRET)).toBe(false);
    expect(verifySignature(body, signWith("sha1"), SECRET, undefined, all)).toBe(true);
    expect(verifySignature(body, createHash("md5").update(SECRET).update(body).digest("hex"), SECRET, "md5")).toBe(false);
  });
  it("computeSignature signs with the algorithm asked", () => {
    expect(computeSignature(body, SECRET, "sha512")).toBe(signWith("sha512"));
    expect(computeSignature(body, SECRET)).toBe(signWith("sha256"));
  });
});

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

async function post(url: string, body: string, signature?: string, algorithm?: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== undefined) headers["x-svc-signature"] = signature;
  if (algorithm !== undefined) headers["x-svc-hash-algo"] = algorithm;
  const res = await fetch(url, { method: "POST", body, headers });
  return { status: res.status, text: await res.text() };
}

function options(received: Notification[], extra: Partial<WebhookOptions> = {}): WebhookOptions {
  return { secret: SECRET, maxBodyBytes: 2048, onEvent: (event) => void received.push(event), ...extra };
}

describe.each([
  ["createWebhookHandler", (o: WebhookOptions) => createWebhookHandler(o)],
  [
    "webhookMiddleware",
    (o: WebhookOptions) => {
      const mw = webhookMiddleware(o);
      return (req: Parameters<typeof mw>[0], res: Parameters<typeof mw>[1]) =>
        mw(req, res, () => {
          res.statusCode = 599;
          res.end();
        });
    },
  ],
])("%s", (_name, make) => {
  it("200 for a signed notification, handing over the parsed event", async () => {
    const received: Notification[] = [];
    const url = await serve(make(options(received)));
    const body = JSON.stringify(notification);
    expect(await post(url, body, sign(body))).toEqual({ status: 200, text: '{"ok":true}' });
    expect(received).toEqual([notification]);
  });

  it("200 for SHA1 (when listed) and SHA512 deliveries that name their algorithm; 401 when the header names another", async () => {
    const received: Notification[] = [];
    const url = await serve(make(options(received, { algorithms: ["sha1", "sha256", "sha512"] })));
    for (const [i, algorithm] of ["sha1", "sha512"].entries()) {
      // One job per delivery: a job id seen before would be answered as a replay.
      const body = JSON.stringify({ ...notification, eventNotificationJobId: 100 + i });
      const signature = createHash(algorithm).update(SECRET).update(body).digest("hex");
      expect((await post(url, body, signature, algorithm)).status).toBe(200);
      expect((await post(url, body, signature, "sha256")).status).toBe(401);
    }
    expect(received).toHaveLength(2);
  });

  it("401 for a missing or bad signature; the callback is not called", async () => {
    const received: Notification[] = [];
    const url = await serve(make(options(received)));
    const body = JSON.stringify(notification);
    expect((await post(url, body)).status).toBe(401);
    expect((await post(url, body, sign(body, "wrong-secret"))).status).toBe(401);
    expect(received).toHaveLength(0);
  });

  it("413 above maxBodyBytes, 400 for signed non-JSON or non-notification bodies", async () => {
    const url = await serve(make(options([])));
    const big = JSON.stringify({ ...notification, object: { pad: "x".repeat(4096) } });
    expect((await post(url, big, sign(big))).status).toBe(413);
    expect((await post(url, "not json", sign("not json"))).status).toBe(400);
    const other = JSON.stringify({ hello: "world" });
    expect((await post(url, other, sign(other))).status).toBe(400);
  });

  it("500 without details when the callback throws", async () => {
    const errors: unknown[] = [];
    const url = await serve(
      make(
        options([], {
          onEvent: () => {
            throw new Error("db down: password=hunter2");
          },
          onError: (e) => errors.push(e),
        }),
      ),
    );
    const body = JSON.stringify(notification);
    const res = await post(url, body, sign(body));
    expect(res).toEqual({ status: 500, text: '{"error":"internal error"}' });
    expect(errors).toHaveLength(1);
  });
});

describe("webhookMiddleware behind express.raw()-style parsing", () => {
  it("uses a Buffer req.body as the raw body", async () => {
    const received: Notification[] = [];
    const mw = webhookMiddleware(options(received));
    const url = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        Object.assign(req, { body: Buffer.concat(chunks) });
        mw(req, res, () => undefined);
      });
    });
    const body = JSON.stringify(notification);
    expect((await post(url, body, sign(body))).status).toBe(200);
    expect(received).toHaveLength(1);
  });

  it("calls next(error) when the body was already parsed into an object", async () => {
    const mw = webhookMiddleware(options([]));
    let nextError: unknown;
    const url = await serve((req, res) => {
      req.resume();
      req.on("end", () => {
        Object.assign(req, { body: { parsed: true } });
        mw(req, res, (error) => {
          nextError = error;
          res.statusCode = 500;
          res.end();
        });
      });
    });
    await post(url, "{}", sign("{}"));
    expect(String(nextError)).toContain("already parsed");
  });

  it("refuses bad options at construction", () => {
    expect(() => createWebhookHandler({ secret: "", onEvent: () => undefined })).toThrow(/"secret"/);
  });
});
