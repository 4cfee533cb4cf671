/**
 * EmailNotificationTemplate under faults through the real engine, on both providers: 40% of requests fail, of every
 * kind (before the platform acts: 503, 429, dropped; after it acted: answer dropped, 502, too slow), and the first
 * requests of each operation take each kind once. Create, an in-place update, a replacement (one template deleted
 * first as it keeps its systemName, one created first), a refresh and a destroy each succeed in one run, leaving the
 * account's email templates exactly those the state records (no orphan, no duplicate) and nothing pending. One
 * template is found again after a lost clone by its systemName, the other by its name, subject and description.
 * (The HTTP template and app tokens: test/support/faultMatrix.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultKind } from "../../emulator/middleware/faults";
import { serverAndState } from "../support/faultChecks";
import { PROVIDER_KINDS, platformStack, type PlatformStack, type Scenario } from "../support/platformStack";

const KINDS: FaultKind[] = ["error", "throttle", "drop", "commitThenDrop", "commitThenError", "slow"];
const RATE = 0.4 / KINDS.length;

function scenario(version: number, event: string): Scenario {
  const template = (name: string, named: boolean) => ({
    event,
    name: `faults ${name}`,
    ...(named ? { systemName: `FAULTS_${name.toUpperCase()}` } : {}),
    description: `v${version}`,
    subject: `${name} v${version}: {entry_name}`,
    body: "Entry {entry_name}.",
    fromEmail: "video@example.com",
    to: [{ email: `${name}@example.com` }],
    ...(version > 1 ? { cc: [{ email: "lead@example.com" }], priority: "HIGH" } : {}),
    contentParameters: [{ key: "entry_name", value: "{entry.name}" }],
  });
  return { emailTemplates: { named: template("named", true), unnamed: template("unnamed", false) } };
}

describe.each(PROVIDER_KINDS)("EmailNotificationTemplate under 40%% faults: %s provider", (provider) => {
  let p: PlatformStack;
  let operation = 0;
  const report: Record<string, unknown> = {};

  beforeAll(async () => {
    p = await platformStack({ provider, stackName: `email-faults-${provider}` });
    await p.stack.setConfig("svc:requestTimeoutMs", { value: "800" });
  }, 120_000);
  afterAll(async () => {
    console.log(`email template faults (${provider}): ${JSON.stringify(report)}`);
    await p?.close();
  });

  async function underFaults(label: string, op: () => Promise<{ summary: { result?: string } }>, destroyed = false): Promise<void> {
    const rates = { errorRate: RATE, throttleRate: RATE, dropRate: RATE, commitThenDropRate: RATE, commitThenErrorRate: RATE, slowRate: RATE };
    // Retry-After 0: what is checked is convergence, not the pause (a 1 s pause held the whole client after each 429;
    // test/sdk/retryRules.test.ts checks that a Retry-After is honoured).
    p.emulator.ctx.faults.set({ ...rates, retryAfterSeconds: 0, slowMs: 1_500, seed: 3100 + operation++ + (provider === "plugin" ? 50 : 0), next: [...KINDS] });
    let result: { summary: { result?: string } };
    try {
      result = await op();
    } finally {
      const { injected } = p.emulator.ctx.faults.get();
      p.emulator.ctx.faults.set({});
      report[label] = injected;
    }
    expect(result.summary.result).toBe("succeeded");
    const { server, state } = await serverAndState(p.stack, p.client);
    expect(state.pending).toBe(0);
    expect(server.emailTemplates).toEqual(state.emailTemplates);
    expect(state.emailTemplates).toHaveLength(destroyed ? 0 : 2);
    if (!destroyed) await p.stack.preview({ refresh: true, expectNoChanges: true });
  }

  it("up creates both templates, in one run", async () => {
    await p.setScenario(scenario(1, "entry.ready"));
    await underFaults("create", () => p.stack.up());
    for (const t of await p.client.emailTemplates.iterate().toArray()) expect(t.status).toBe(2);
  }, 300_000);

  it("an in-place update, in one run", async () => {
    await p.setScenario(scenario(2, "entry.ready"));
    await underFaults("update", () => p.stack.up());
    for (const t of await p.client.emailTemplates.iterate().toArray()) expect(t).toMatchObject({ description: "v2", priority: 1 });
  }, 300_000);

  it("a replacement (another event), in one run", async () => {
    await p.setScenario(scenario(2, "entry.added"));
    await underFaults("replace", () => p.stack.up());
    for (const t of await p.client.emailTemplates.iterate().toArray()) expect(t).toMatchObject({ eventType: "2", status: 2 });
  }, 300_000);

  it("a refresh, in one run", async () => {
    await underFaults("refresh", () => p.stack.refresh());
  }, 300_000);

  it("a destroy, in one run", async () => {
    await underFaults("destroy", () => p.stack.destroy(), true);
  }, 300_000);
});
