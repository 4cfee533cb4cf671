/**
 * One template per signing algorithm (SHA1, SHA256, SHA512), declared in a Pulumi program and created through the
 * real engine, fires on one event; every delivery reaches a receiver built on the sdk's createWebhookHandler,
 * carries X-SVC-HASH-ALGO naming its template's algorithm, and is accepted (200). The signatures are recomputed
 * here independently of the sdk. The same up checks AppToken.isInstance / HttpNotificationTemplate.isInstance on the
 * objects the engine registered.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookHandler, type Notification } from "../../sdk";
import { platformStack, SIGN_SECRET, values, type PlatformStack } from "../support/platformStack";

const ALGORITHMS = { SHA1: "sha1", SHA256: "sha256", SHA512: "sha512" } as const;

describe("webhook signatures per algorithm, from a Pulumi template to the sdk receiver", () => {
  let p: PlatformStack;
  let receiver: Server;
  const accepted: string[] = [];
  const arrivals: { algorithm: string; signature: string; status: number; templateId?: string; rawBody: Buffer }[] = [];

  beforeAll(async () => {
    // SHA1 is accepted only when listed (the default is sha256 and sha512); this receiver serves all three templates.
    const handler = createWebhookHandler({
      secret: SIGN_SECRET,
      algorithms: ["sha1", "sha256", "sha512"],
      onEvent: (event: Notification) => void accepted.push(event.templateId),
    });
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("finish", () => {
        const rawBody = Buffer.concat(chunks);
        arrivals.push({
          algorithm: String(req.headers["x-svc-hash-algo"] ?? ""),
          signature: String(req.headers["x-svc-signature"] ?? ""),
          status: res.statusCode,
          templateId: (JSON.parse(rawBody.toString("utf8")) as Notification).templateId,
          rawBody,
        });
      });
      handler(req, res);
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    p = await platformStack();
    await p.stack.setConfig("receiverUrl", { value: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    receiver?.close();
  });

  it("SHA1, SHA256 and SHA512 templates each deliver a signature the receiver accepts", async () => {
    const templates = Object.fromEntries(
      Object.keys(ALGORITHMS).map((algo) => [
        `hook${algo}`,
        { event: "entry.added", name: `Hook ${algo}`, url: "$receiverUrl", signSecret: "$signSecret", secureHashingAlgo: algo },
      ]),
    );
    await p.setScenario({ templates, tokens: { token: {} } });
    const out = values((await p.stack.up()).outputs);

    await p.control("/trigger", { event: "entry.added" });
    await p.control("/deliveries/wait?timeoutMs=20000", {});
    expect(arrivals).toHaveLength(3);
    for (const [algo, hash] of Object.entries(ALGORITHMS)) {
      const id = out[`hook${algo}Id`] as string;
      expect(await p.client.templates.get(id)).toMatchObject({ secureHashingAlgo: { SHA1: 1, SHA256: 2, SHA512: 3 }[algo] });
      const arrival = arrivals.find((a) => a.algorithm === hash);
      expect(arrival, `a delivery signed with ${hash}`).toBeDefined();
      expect(arrival!.status).toBe(200);
      expect(arrival!.templateId).toBe(id);
      expect(accepted).toContain(id);
      expect(arrival!.signature).toBe(createHash(hash).update(SIGN_SECRET).update(arrival!.rawBody).digest("hex"));
    }

    // isInstance against the engine's own type tokens (pulumi-nodejs:dynamic/svc:...).
    expect(out.tokenIsInstance).toEqual([true, false]);
    for (const algo of Object.keys(ALGORITHMS)) expect(out[`hook${algo}IsInstance`]).toEqual([false, true]);
  }, 180_000);
});
