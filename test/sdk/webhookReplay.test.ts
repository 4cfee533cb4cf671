/**
 * Issue 23: replay protection that loses no event and survives a restart. The store's claim is the only check
 * (an async store included): a second attempt while the first is running is told 409, not `duplicate`, and a
 * failed first attempt releases its claim so the retry is processed; of concurrent deliveries exactly one runs the
 * callback. SqliteReplayStore keeps job ids in a file: a new instance on the same path (a restart) refuses the
 * replay; two instances on one file (two processes) share claims; entries are dropped after the window.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryReplayStore, SqliteReplayStore, type ClaimResult, type ReplayStore, type WebhookFailureStage } from "../../sdk";
import { processWebhook, type WebhookOptions } from "../../sdk/webhooks";
import { delivery } from "./webhookDelivery";

const SECRET = "whsec-replay-test-secret";
const send = (options: WebhookOptions, jobId: number) => {
  const body = delivery(jobId);
  return processWebhook(Buffer.from(body), createHash("sha256").update(SECRET).update(body).digest("hex"), options);
};

/** A promise with its resolve, to hold a callback until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** An async store (a network round trip per call): atomic in itself, but every answer comes after an await. */
function asyncStore(inner: ReplayStore = new MemoryReplayStore()): ReplayStore & { claims: ClaimResult[] } {
  const claims: ClaimResult[] = [];
  const later = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    claims,
    claim: async (key, leaseMs) => {
      await later();
      const result = await inner.claim(key, leaseMs);
      claims.push(result);
      await later();
      return result;
    },
    complete: async (key, ttlMs) => {
      await later();
      await inner.complete(key, ttlMs);
    },
    release: async (key) => {
      await later();
      await inner.release(key);
    },
  };
}

describe("claim is the only check, also with an async store", () => {
  it("two receivers on one store: a second attempt while the first runs is 409; the first fails and releases; the retry is processed", async () => {
    const store = asyncStore();
    const firstRunning = gate();
    const firstMayFail = gate();
    const runs: string[] = [];
    // Two processes behind a load balancer: each its own options object, one shared store.
    const receiver = (name: string): WebhookOptions => ({
      secret: SECRET,
      replay: { store },
      onEvent: async () => {
        runs.push(name);
        if (runs.length === 1) {
          firstRunning.open();
          await firstMayFail.promise;
          throw new Error("db down");
        }
      },
    });
    const [a, b] = [receiver("a"), receiver("b")];
    const first = send(a, 1);
    await firstRunning.promise;
    expect(await send(b, 1)).toEqual({ status: 409, body: { error: "this delivery is being processed" } });
    firstMayFail.open();
    expect((await first).status).toBe(500);
    expect(await send(b, 1)).toEqual({ status: 200, body: { ok: true } });
    expect(await send(a, 1)).toEqual({ status: 200, body: { ok: true, duplicate: true } });
    expect(runs).toEqual(["a", "b"]);
    expect(store.claims).toEqual(["claimed", "in-progress", "claimed", "duplicate"]);
  });

  it("ten concurrent deliveries of one job: exactly one runs the callback, the others are told 409", async () => {
    const store = asyncStore();
    const release = gate();
    let runs = 0;
    const options: WebhookOptions = {
      secret: SECRET,
      replay: { store },
      onEvent: async () => {
        runs++;
        await release.promise;
      },
    };
    const attempts = Array.from({ length: 10 }, () => send(options, 2));
    // The one that runs waits on the gate; the nine others must be answered without it.
    const early: number[] = [];
    const nineAnswered = new Promise<void>((resolve) => {
      for (const attempt of attempts) void attempt.then((reply) => early.push(reply.status) === 9 && resolve());
    });
    await nineAnswered;
    expect(early).toEqual(Array(9).fill(409));
    expect(runs).toBe(1);
    release.open();
    const replies = await Promise.all(attempts);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(runs).toBe(1);
    expect((await send(options, 2)).body).toEqual({ ok: true, duplicate: true });
  });

  it("owned claims: an attempt that outlived its lease and then failed does not release the retry that took over", async () => {
    let now = 0;
    const store = new MemoryReplayStore(100, () => now);
    const firstRunning = gate();
    const firstMayFail = gate();
    const secondMayFinish = gate();
    const runs: string[] = [];
    const options: WebhookOptions = {
      secret: SECRET,
      replay: { store, leaseMs: 1000 },
      onEvent: async () => {
        runs.push(`run ${runs.length + 1}`);
        if (runs.length === 1) {
          firstRunning.open();
          await firstMayFail.promise;
          throw new Error("slow and then failed");
        }
        await secondMayFinish.promise;
      },
    };
    const first = send(options, 4);
    await firstRunning.promise;
    now = 1000; // the first attempt's lease lapsed: the platform's retry takes the job over
    const second = send(options, 4);
    await new Promise((resolve) => setImmediate(resolve));
    firstMayFail.open();
    expect((await first).status).toBe(500);
    // The first attempt's release must not free the second's claim: a third attempt waits (409), no third run.
    expect((await send(options, 4)).status).toBe(409);
    secondMayFinish.open();
    expect(await second).toEqual({ status: 200, body: { ok: true } });
    expect(runs).toEqual(["run 1", "run 2"]);
  });

  it("a claim whose holder never finished lapses after leaseMs; a completed one is held for the window", () => {
    let now = 0;
    const store = new MemoryReplayStore(100, () => now);
    expect(store.claim("a", 1000)).toBe("claimed");
    now = 999;
    expect(store.claim("a", 1000)).toBe("in-progress");
    now = 1000;
    expect(store.claim("a", 1000)).toBe("claimed");
    store.complete("a", 5000);
    now = 5999;
    expect(store.claim("a", 1000)).toBe("duplicate");
    store.release("a");
    expect(store.claim("a", 1000)).toBe("duplicate");
    now = 6000;
    expect(store.claim("a", 1000)).toBe("claimed");
  });

  it("replay.leaseMs is checked and passed to the store", async () => {
    const leases: number[] = [];
    const store: ReplayStore = { claim: (_k, leaseMs) => (leases.push(leaseMs), "claimed"), complete: () => undefined, release: () => undefined };
    await send({ secret: SECRET, replay: { store, leaseMs: 1234 }, onEvent: () => undefined }, 3);
    expect(leases).toEqual([1234]);
    await expect(send({ secret: SECRET, replay: { leaseMs: 0 }, onEvent: () => undefined }, 3)).rejects.toThrow(/"replay.leaseMs"/);
    const legacy = { claim: () => true, release: () => undefined } as unknown as ReplayStore;
    await expect(send({ secret: SECRET, replay: { store: legacy }, onEvent: () => undefined }, 3)).rejects.toThrow(/"replay.store" must have claim.*complete/);
  });
});

describe("SqliteReplayStore: durable, shared by the processes of one host, with retention", () => {
  const folder = mkdtempSync(join(tmpdir(), "svc-replay-"));
  const opened: SqliteReplayStore[] = [];
  const open = (name: string, now?: () => number) => {
    const store = new SqliteReplayStore(join(folder, name), now ? { now } : {});
    opened.push(store);
    return store;
  };
  afterAll(() => {
    for (const store of opened) store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("a delivery processed before a restart is refused after it (a new instance on the same file)", async () => {
    const handled: number[] = [];
    const before = open("restart.db");
    const options = (store: ReplayStore): WebhookOptions => ({
      secret: SECRET,
      replay: { store },
      onEvent: (e) => void handled.push(e.eventNotificationJobId),
    });
    expect(await send(options(before), 10)).toEqual({ status: 200, body: { ok: true } });
    before.close();

    const after = open("restart.db");
    expect(await send(options(after), 10)).toEqual({ status: 200, body: { ok: true, duplicate: true } });
    expect(await send(options(after), 11)).toEqual({ status: 200, body: { ok: true } });
    expect(handled).toEqual([10, 11]);
  });

  it("two instances on one file share claims: in progress, released, completed", async () => {
    const one = open("shared.db");
    const two = open("shared.db");
    expect(await one.claim("job", 60_000)).toBe("claimed");
    expect(await two.claim("job", 60_000)).toBe("in-progress");
    await one.release("job");
    expect(await two.claim("job", 60_000)).toBe("claimed");
    await two.complete("job", 60_000);
    expect(await one.claim("job", 60_000)).toBe("duplicate");
    await two.release("job");
    expect(await one.claim("job", 60_000)).toBe("duplicate");
  });

  it("a lapsed lease is claimed again; entries older than the window are dropped", async () => {
    let now = 1_000_000;
    const store = open("retention.db", () => now);
    expect(await store.claim("crashed", 1000)).toBe("claimed");
    expect(await store.claim("done", 1000)).toBe("claimed");
    await store.complete("done", 10_000);
    now += 1000;
    expect(await store.claim("crashed", 1000)).toBe("claimed");
    expect(store.size).toBe(2);
    now += 60_000;
    expect(await store.claim("new", 1000)).toBe("claimed");
    // The purge (at most once a minute by default) ran before that claim: the two expired entries are gone.
    expect(store.size).toBe(1);
  });

  it("a file another connection holds locked: the claim fails, the receiver answers 500 and reports it", async () => {
    const path = join(folder, "locked.db");
    const store = new SqliteReplayStore(path, { busyTimeoutMs: 0 });
    opened.push(store);
    const { DatabaseSync } = require("node:sqlite") as typeof import("node:sqlite");
    const other = new DatabaseSync(path);
    const stages: WebhookFailureStage[] = [];
    const options: WebhookOptions = { secret: SECRET, replay: { store }, onEvent: () => undefined, onError: (_e, c) => void stages.push(c.stage) };
    try {
      other.exec("BEGIN IMMEDIATE");
      expect(await send(options, 20)).toEqual({ status: 500, body: { error: "internal error" } });
      expect(stages).toEqual(["replay.claim"]);
      other.exec("ROLLBACK");
      expect(await send(options, 20)).toEqual({ status: 200, body: { ok: true } });
    } finally {
      other.close();
    }
  });

  it("refuses a path that is not a file", () => {
    expect(() => new SqliteReplayStore("")).toThrow(/"path"/);
    expect(() => new SqliteReplayStore(":memory:")).toThrow(/"path"/);
  });
});
