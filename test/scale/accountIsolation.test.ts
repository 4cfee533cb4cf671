/**
 * Per-account isolation in the provider runtime (no engine; the emulator in this process): every account reached
 * through an explicit connection has its own client, so its own session, its own limit of calls in flight
 * (`svc:maxConcurrency`) and its own pause after a 429. The emulator counts the calls in flight per partner and aims
 * faults at one partner (emulator/api/partnerTraffic.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import type { FaultConfig } from "../../emulator/middleware/faults";
import { providerRuntime } from "../support/providerRuntime";

const MAX_CONCURRENCY = 4;

interface Account {
  partnerId: number;
  adminSecret: string;
}

describe("accounts are isolated from each other in one provider process", () => {
  let emulator: RunningEmulator;
  let accounts: Account[] = [];
  /** The provider process of the test that runs: a session of its own. */
  let runtime = providerRuntime();

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
  });
  /**
   * New accounts for each test: a call the platform is still answering when a test ends (the slow account's) stays
   * in flight on the server, and would count against the same account in the next test.
   */
  const newAccounts = (n: number): Account[] => {
    accounts = Array.from({ length: n }, () => {
      const p = emulator.ctx.createPartner();
      return { partnerId: p.id, adminSecret: p.adminSecret };
    });
    return accounts;
  };
  afterEach(async () => {
    // Ends whatever an account held back is still waiting for, then starts the next test on a new session.
    runtime.session.cancel();
    await runtime.session.close();
    runtime = providerRuntime();
    for (const a of accounts) emulator.ctx.traffic.setFaults(a.partnerId, {});
    emulator.ctx.faults.set({});
    emulator.ctx.traffic.reset();
    emulator.ctx.stats.reset();
  });
  afterAll(() => emulator.close());

  const useConfig = (extra: Record<string, string> = {}) => {
    const config: Record<string, string> = { "svc:maxConcurrency": String(MAX_CONCURRENCY), ...extra };
    runtime.session.configure({ get: (key) => config[key] });
  };
  const aim = (partnerId: number, faults: FaultConfig) => emulator.ctx.traffic.setFaults(partnerId, faults);
  const connectionOf = (account: Account) => ({
    baseUrl: emulator.baseUrl,
    partnerId: account.partnerId,
    adminSecret: account.adminSecret,
  });
  /** Creates `count` AppTokens on the account; each promise records when it settled. */
  const creates = (account: Account, count: number, label: string) =>
    Array.from({ length: count }, async (_, i) => {
      const description = count === 1 ? label : `${label} ${i}`;
      const { inputs } = await runtime.appToken.check({}, { description, connection: connectionOf(account) });
      return runtime.appToken.create(inputs);
    });
  const settledState = (promises: Promise<unknown>[]) => {
    const state = { settled: 0 };
    for (const p of promises)
      p.then(
        () => state.settled++,
        () => state.settled++,
      );
    return state;
  };
  const activeOn = async (partnerId: number) => emulator.ctx.store.listDocs<{ status: number }>("appToken", partnerId).filter((t) => t.status === 2).length;

  it("a 429 storm on one account does not pause the others", async () => {
    // The default request timeout: a create cancelled while it waits out a Retry-After sent nothing that can act, so
    // it ends at once after Cancel.
    useConfig();
    const [stormed, calm1, calm2] = newAccounts(3) as [Account, Account, Account];
    // Every call of the stormed account is answered 429 with a long Retry-After: its client pauses.
    aim(stormed.partnerId, { throttleRate: 1, retryAfterSeconds: 600 });
    const held = creates(stormed, 5, "stormed");
    const heldState = settledState(held);
    const before = await Promise.all([activeOn(calm1.partnerId), activeOn(calm2.partnerId)]);
    await Promise.all([...creates(calm1, 10, "calm one"), ...creates(calm2, 10, "calm two")]);
    expect([await activeOn(calm1.partnerId), await activeOn(calm2.partnerId)]).toEqual(before.map((n) => n + 10));
    // The stormed account was asked to slow down and is still waiting, its creates not done.
    expect(emulator.ctx.traffic.faultsOf(stormed.partnerId)?.injected.throttle).toBeGreaterThan(0);
    expect(heldState.settled).toBe(0);
    // What the held account was waiting for ends with the operations (the plugin's Cancel).
    runtime.session.cancel();
    await Promise.allSettled(held);
  });

  it("a slow account does not hold the others' creates", { timeout: 60_000 }, async () => {
    // The default request timeout (30 s), shorter than the slow answers: after Cancel the creates on the wire find what
    // the platform made, and those waiting for a slot sent nothing and end at once.
    useConfig();
    const [slow, fast] = newAccounts(2) as [Account, Account];
    // Each of the slow account's creates is answered 60 s late (its session starts at once): its slots are all taken.
    aim(slow.partnerId, { slowRate: 1, slowMs: 60_000, pathIncludes: "/appToken/action/add" });
    const held = creates(slow, MAX_CONCURRENCY * 2, "slow");
    const heldState = settledState(held);
    await expect.poll(() => emulator.ctx.traffic.snapshot()[String(slow.partnerId)]?.inFlight, { timeout: 10_000 }).toBe(MAX_CONCURRENCY);
    const before = await activeOn(fast.partnerId);
    await Promise.all(creates(fast, 12, "fast"));
    expect(await activeOn(fast.partnerId)).toBe(before + 12);
    expect(heldState.settled).toBe(0);
    expect(emulator.ctx.traffic.snapshot()[String(slow.partnerId)]?.inFlight).toBe(MAX_CONCURRENCY);
    // What the held account was waiting for ends with the operations (the plugin's Cancel).
    runtime.session.cancel();
    await Promise.allSettled(held);
  });

  it("a create recovering in one account does not wait for a held create of equal fields in another account", async () => {
    useConfig();
    const [stormed, other] = newAccounts(2) as [Account, Account];
    // The same declaration in two accounts (a reseller's "deploy pipeline" token in each): one account is held back
    // by a 429 storm while the other's create loses its answer after the platform made the token.
    aim(stormed.partnerId, { throttleRate: 1, retryAfterSeconds: 600 });
    const held = creates(stormed, 1, "deploy pipeline");
    const heldState = settledState(held);
    await expect.poll(() => emulator.ctx.traffic.faultsOf(stormed.partnerId)?.injected.throttle, { timeout: 10_000 }).toBeGreaterThan(0);
    aim(other.partnerId, { next: ["commitThenDrop"], pathIncludes: "/appToken/action/add" });
    const [recovered] = await Promise.all(creates(other, 1, "deploy pipeline"));
    // Adopted, not duplicated: the account holds exactly the one token the lost create made.
    expect(await activeOn(other.partnerId)).toBe(1);
    expect(recovered?.id).toBeDefined();
    expect(heldState.settled).toBe(0);
    runtime.session.cancel();
    await Promise.allSettled(held);
  });

  it("the platform sees at most svc:maxConcurrency calls in flight per account, and each account gets its own", async () => {
    useConfig();
    // A little latency on every call so that calls overlap and the limit is reached.
    emulator.ctx.faults.set({ latencyMs: 40 });
    await Promise.all(newAccounts(3).flatMap((account, n) => creates(account, 24, `bounded ${n}`)));
    const traffic = emulator.ctx.traffic.snapshot();
    for (const account of accounts) {
      const figures = traffic[String(account.partnerId)];
      expect(figures?.peakInFlight).toBeLessThanOrEqual(MAX_CONCURRENCY);
      // The limit is reached (24 creates at once): each account had its own slots, none waited for another's.
      expect(figures?.peakInFlight).toBe(MAX_CONCURRENCY);
    }
    // At some moment more calls were in flight than one account may have: the limit is not shared.
    expect(emulator.ctx.traffic.peakInFlightAll).toBeGreaterThan(MAX_CONCURRENCY);
    // One session per account for all 24 creates, not one per resource.
    expect(emulator.ctx.stats.snapshot()["session.start"]).toBeLessThanOrEqual(accounts.length);
  });
});
