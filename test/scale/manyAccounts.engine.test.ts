/**
 * Twenty accounts in one stack through the real engine, on the dynamic providers (one explicit `connection` per
 * resource; bench/fixtures/accounts) and on the plugin (one explicit provider per account; accountsPlugin): with 20% faults aimed at one account, one `up` converges, the platform holds
 * exactly what the state records (no orphan, no duplicate), and with the engine's default parallelism the platform
 * never sees more than `svc:maxConcurrency` calls in flight for any account. Then `destroy` under the same faults
 * leaves nothing behind.
 */
import { appendFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { pluginDir, PROVIDER_KINDS } from "../support/platformStack";
import { newTestStack, repoRoot, type TestStack } from "../support/pulumi";

const ACCOUNTS = 20;
const PER_ACCOUNT = 3;
const MAX_CONCURRENCY = 2;
/** 20% in all, an even mix of the faults before and after the platform acts (as bench/reliability.ts). */
const TWENTY_PERCENT = {
  errorRate: 0.04,
  dropRate: 0.03,
  throttleRate: 0.03,
  commitThenDropRate: 0.04,
  commitThenErrorRate: 0.03,
  slowRate: 0.03,
  slowMs: 1_500,
  seed: 27,
};

const fixtures = join(repoRoot, "bench", "fixtures");

describe.each(PROVIDER_KINDS)("twenty accounts in one stack (%s)", (kind) => {
  let emulator: RunningEmulator;
  let t: TestStack;
  let accounts: { baseUrl: string; partnerId: number; adminSecret: string }[];

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    accounts = [
      { baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, adminSecret: emulator.adminSecret },
      ...Array.from({ length: ACCOUNTS - 1 }, () => {
        const p = emulator.ctx.createPartner();
        return { baseUrl: emulator.baseUrl, partnerId: p.id, adminSecret: p.adminSecret };
      }),
    ];
    t = await newTestStack(join(fixtures, kind === "plugin" ? "accountsPlugin" : "accounts"), { copyProgram: true });
    if (kind === "plugin") {
      // One explicit provider per account, each its own plugin process (the plugin from the build, by path).
      copyFileSync(join(fixtures, "accounts", "shape.js"), join(t.workDir, "shape.js"));
      appendFileSync(join(t.workDir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: svc\n      path: ${pluginDir}\n`);
    }
    await t.stack.setAllConfig({
      accountCount: { value: String(ACCOUNTS) },
      perAccount: { value: String(PER_ACCOUNT) },
      accounts: { value: JSON.stringify(accounts), secret: true },
      "svc:maxConcurrency": { value: String(MAX_CONCURRENCY) },
      // Each attempt waits 1 s for its answer, so the `slow` faults (1.5 s) are lost answers after the platform acted.
      "svc:requestTimeoutMs": { value: "1000" },
    });
  });
  afterAll(async () => {
    await t?.cleanup();
    await emulator?.close();
  });

  /** Active tokens and live templates of the stack's accounts on the platform, and the ids the state records. */
  const serverAndState = async () => {
    const deployment = (await t.stack.exportStack()).deployment as { resources?: { type: string; id?: string }[] };
    const state = (deployment.resources ?? [])
      .filter((r) => /(AppToken|NotificationTemplate)$/.test(r.type) && r.id)
      .map((r) => r.id as string)
      .sort();
    const server = accounts
      .flatMap((a) => [
        ...emulator.ctx.store.listDocs<{ id: string; status: number }>("appToken", a.partnerId).filter((d) => d.status === 2),
        ...emulator.ctx.store.listDocs<{ id: string; status: number }>("template", a.partnerId).filter((d) => d.status !== 3),
      ])
      .map((d) => d.id)
      .sort();
    return { server, state };
  };

  it("converges in one up with 20% faults on one account, never over the per-account limit, with no orphan", { timeout: 240_000 }, async () => {
    // Calls take a little time, so that up to the engine's parallelism of them overlap.
    emulator.ctx.faults.set({ latencyMs: 20 });
    emulator.ctx.traffic.setFaults(accounts[0]!.partnerId, TWENTY_PERCENT);
    emulator.ctx.traffic.reset();

    const up = await t.stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    // The resources, the stack, and on the plugin the explicit providers.
    expect(up.summary.resourceChanges?.create).toBe(ACCOUNTS * PER_ACCOUNT + 1 + (kind === "plugin" ? ACCOUNTS : 0));
    const injected = emulator.ctx.traffic.faultsOf(accounts[0]!.partnerId)?.injected ?? {};
    expect(Object.entries(injected).some(([kind, n]) => kind !== "ok" && Number(n) > 0)).toBe(true);

    const traffic = emulator.ctx.traffic.snapshot();
    for (const a of accounts) expect(traffic[String(a.partnerId)]?.peakInFlight).toBeLessThanOrEqual(MAX_CONCURRENCY);
    // The engine ran more than one account's worth at once: the limit is each account's, not the process's.
    expect(emulator.ctx.traffic.peakInFlightAll).toBeGreaterThan(MAX_CONCURRENCY);

    const { server, state } = await serverAndState();
    expect(state).toHaveLength(ACCOUNTS * PER_ACCOUNT);
    expect(server).toEqual(state);

    const destroy = await t.stack.destroy({ color: "never" });
    expect(destroy.summary.result).toBe("succeeded");
    expect((await serverAndState()).server).toEqual([]);
  });
});
