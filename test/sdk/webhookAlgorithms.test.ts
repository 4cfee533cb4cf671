/**
 * Issue 23: the sender's X-SVC-HASH-ALGO no longer chooses SHA1 by default (RECOMMENDED_ALGORITHMS: sha256,
 * sha512); SHA1 is accepted only when listed. And what a plain hash of secret + body means: anyone holding one
 * signed delivery can sign that body with more bytes appended (length extension, computed here for SHA-256 without
 * the secret); the receiver refuses such a body because it parses the whole body strictly.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { computeSignature, createWebhookHandler, RECOMMENDED_ALGORITHMS, verifySignature, type WebhookOptions } from "../../sdk";
import { processWebhook } from "../../sdk/webhooks";
import { delivery } from "./webhookDelivery";

const SECRET = "whsec-algorithms-test-secret";
const signWith = (algorithm: string, body: string | Buffer) => createHash(algorithm).update(SECRET).update(body).digest("hex");

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function post(options: WebhookOptions, body: string, headers: Record<string, string>): Promise<number> {
  const server = createServer(createWebhookHandler(options));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, { method: "POST", body, headers });
  await res.body?.cancel();
  return res.status;
}

describe("the accepted algorithms", () => {
  it("by default a SHA1 delivery is refused whether X-SVC-HASH-ALGO names it or not; SHA256 and SHA512 pass", async () => {
    const options: WebhookOptions = { secret: SECRET, replay: false, onEvent: () => undefined };
    const body = delivery(1);
    expect(await post(options, body, { "x-svc-signature": signWith("sha1", body), "x-svc-hash-algo": "sha1" })).toBe(401);
    expect(await post(options, body, { "x-svc-signature": signWith("sha1", body) })).toBe(401);
    expect(await post(options, body, { "x-svc-signature": signWith("sha256", body), "x-svc-hash-algo": "sha256" })).toBe(200);
    expect(await post(options, body, { "x-svc-signature": signWith("sha512", body) })).toBe(200);
    expect(verifySignature(body, signWith("sha1", body), SECRET, "sha1")).toBe(false);
    expect(verifySignature(body, signWith("sha1", body), SECRET)).toBe(false);
    expect(RECOMMENDED_ALGORITHMS).toEqual(["sha256", "sha512"]);
  });

  it("SHA1 passes when listed explicitly (a secureHashingAlgo 1 template); a pinned list refuses the others", async () => {
    const sha1: WebhookOptions = { secret: SECRET, algorithms: ["sha1"], replay: false, onEvent: () => undefined };
    const body = delivery(2);
    expect(await post(sha1, body, { "x-svc-signature": signWith("sha1", body), "x-svc-hash-algo": "sha1" })).toBe(200);
    expect(await post(sha1, body, { "x-svc-signature": signWith("sha256", body), "x-svc-hash-algo": "sha256" })).toBe(401);
    expect(verifySignature(body, signWith("sha1", body), SECRET, "sha1", { accept: ["sha1"] })).toBe(true);
  });
});

// ---- SHA-256 length extension, to show what a secret-prefix signature allows -----------------------------------

// The round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes (2..311).
const PRIMES = Array.from({ length: 312 }, (_, n) => n).filter((n) => n > 1 && Array.from({ length: n - 2 }, (_, i) => i + 2).every((d) => n % d !== 0));
const K = PRIMES.slice(0, 64).map((p) => Math.floor((Math.cbrt(p) % 1) * 2 ** 32) >>> 0);
const rotr = (x: number, n: number) => ((x >>> n) | (x << (32 - n))) >>> 0;

/** SHA-256's compression function on one 64-byte block, updating `h` in place. */
function compress(h: number[], block: Buffer): void {
  const w: number[] = [];
  for (let i = 0; i < 16; i++) w.push(block.readUInt32BE(i * 4));
  for (let i = 16; i < 64; i++) {
    const [w15, w2, w16, w7] = [w[i - 15]!, w[i - 2]!, w[i - 16]!, w[i - 7]!];
    const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
    w.push((w16 + s0 + w7 + s1) >>> 0);
  }
  let [a, b, c, d, e, f, g, hh] = h as [number, number, number, number, number, number, number, number];
  for (let i = 0; i < 64; i++) {
    const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
    [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
  }
  for (const [i, v] of [a, b, c, d, e, f, g, hh].entries()) h[i] = (h[i]! + v) >>> 0;
}

/** The padding SHA-256 appends to a message of `length` bytes. */
function padding(length: number): Buffer {
  const zeros = (((55 - length) % 64) + 64) % 64;
  const tail = Buffer.alloc(8);
  tail.writeBigUInt64BE(BigInt(length) * 8n);
  return Buffer.concat([Buffer.from([0x80]), Buffer.alloc(zeros), tail]);
}

/** hex SHA-256 of (secret + body + padding + extra), knowing only sha256(secret + body) and the secret's length. */
function extend(signature: string, signedLength: number, extra: Buffer): string {
  const h = Array.from({ length: 8 }, (_, i) => Number.parseInt(signature.slice(i * 8, i * 8 + 8), 16));
  const prefix = signedLength + padding(signedLength).length;
  const rest = Buffer.concat([extra, padding(prefix + extra.length)]);
  for (let i = 0; i < rest.length; i += 64) compress(h, rest.subarray(i, i + 64));
  return h.map((v) => v.toString(16).padStart(8, "0")).join("");
}

describe("a plain hash of secret + body, not an HMAC", () => {
  it("a length-extended body carries a valid signature made without the secret, and the receiver refuses it (strict parse)", async () => {
    const body = Buffer.from(delivery(3));
    const signature = computeSignature(body, SECRET);
    const extra = Buffer.from(',"eventNotificationJobId":4}');
    const forgedBody = Buffer.concat([body, padding(SECRET.length + body.length), extra]);
    const forged = extend(signature, SECRET.length + body.length, extra);

    // The attack is real: the forgery verifies against the secret the attacker never had.
    expect(forged).toBe(computeSignature(forgedBody, SECRET));
    expect(verifySignature(forgedBody, forged, SECRET)).toBe(true);

    const seen: number[] = [];
    const options: WebhookOptions = { secret: SECRET, onEvent: (e) => void seen.push(e.eventNotificationJobId) };
    expect(await processWebhook(forgedBody, { signature: forged, algorithm: "sha256" }, options)).toEqual({ status: 400, body: { error: "body is not JSON" } });
    // Also when the padding would decode leniently: invalid UTF-8 is not replaced, it is refused.
    expect(forgedBody.toString("utf8")).toContain("\uFFFD");
    expect(seen).toEqual([]);
  });

  it("a BOM or trailing bytes after the JSON value are refused, even when signed", async () => {
    const options: WebhookOptions = { secret: SECRET, replay: false, onEvent: () => undefined };
    for (const body of [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(delivery(5))]), Buffer.from(`${delivery(5)}\u0000`)]) {
      expect((await processWebhook(body, signWith("sha256", body), options)).status).toBe(400);
    }
    const fine = Buffer.from(`${delivery(5)}\n`);
    expect((await processWebhook(fine, signWith("sha256", fine), options)).status).toBe(200);
  });
});
