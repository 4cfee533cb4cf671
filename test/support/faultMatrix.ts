/**
 * The fault matrix through the real engine (used by test/e2e/faultMatrix.*.test.ts). A stack of 4 AppTokens and 2
 * templates goes through up (create), an in-place update, a replacement, a refresh and a destroy while the emulator
 * injects a group of fault kinds: 40% of requests in all, split evenly between the group's kinds, from a seed per
 * operation; and, so that every cell of {operation} x {kind} is exercised whatever the request order, the first
 * requests of every operation take each kind of the group once (`next`). After each operation: it succeeded in one
 * run, the platform holds exactly the objects the state records (no orphan, no duplicate, nothing deleted that the
 * state still holds), nothing is pending, and `preview --refresh --expect-no-changes` passes. One stack per group
 * (before the platform acts / after it acted) keeps the cost at two stacks, each in its own test file, so the two
 * run side by side.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultConfig, FaultKind } from "../../emulator/middleware/faults";
import { serverAndState } from "./faultChecks";
import { platformStack, type PlatformStack, type ProviderKind, type Scenario } from "./platformStack";

export interface FaultGroup {
  name: string;
  kinds: FaultKind[];
  /** Extra fault settings (Retry-After, how late a slow answer comes). */
  settings?: FaultConfig;
  /** Extra stack config (slow answers need an attempt timeout shorter than their delay). */
  config?: Record<string, string>;
}

const TOTAL_RATE = 0.4;
const RATE_KEY: Record<FaultKind, keyof FaultConfig | undefined> = {
  ok: undefined,
  error: "errorRate",
  throttle: "throttleRate",
  drop: "dropRate",
  commitThenDrop: "commitThenDropRate",
  commitThenError: "commitThenErrorRate",
  slow: "slowRate",
  late: undefined,
};

/** Retry-After 0: the matrix checks convergence, not the pause (test/sdk/retryRules.test.ts checks that it is honoured). */
export const BEFORE_ACTING: FaultGroup = { name: "before acting", kinds: ["error", "throttle", "drop"], settings: { retryAfterSeconds: 0 } };
export const AFTER_ACTING: FaultGroup = {
  name: "after acting",
  kinds: ["commitThenDrop", "commitThenError", "slow"],
  settings: { slowMs: 1_500 },
  config: { "svc:requestTimeoutMs": "800" },
};

const TOKEN_NAMES = ["a", "b", "c", "d"];

function scenario(group: string, version: number, rotate: string, event: string): Scenario {
  const tag = group.replace(/\W+/g, "_");
  // Every token differs in its fields (a lost create is recognised by them); a and b rotate with the keepers.
  const token = (name: string) => ({
    description: `${tag} ${name} v${version}`,
    sessionPrivileges: `list:${name}`,
    keepers: name === "a" || name === "b" ? { rotate } : undefined,
  });
  const template = (name: string, named: boolean) => ({
    event,
    name: `${tag} ${name}`,
    ...(named ? { systemName: `${name}_${tag}` } : {}),
    description: `v${version}`,
    url: `https://hooks.example/${name}`,
    signSecret: "$signSecret",
  });
  return {
    tokens: Object.fromEntries(TOKEN_NAMES.map((name) => [name, token(name)])),
    // One template found again by its systemName, one by its name and url.
    templates: { named: template("named", true), unnamed: template("unnamed", false) },
  };
}

export function faultMatrix(group: FaultGroup, seedBase: number, provider: ProviderKind = "dynamic"): void {
  describe(`fault matrix (${provider} provider): ${group.name} (${group.kinds.join(", ")})`, () => {
    let p: PlatformStack;
    const report: Record<string, unknown> = {};
    let operation = 0;

    beforeAll(async () => {
      p = await platformStack({ stackName: `faults-${group.kinds[0]}`, provider });
      for (const [key, value] of Object.entries(group.config ?? {})) await p.stack.setConfig(key, { value });
    }, 120_000);
    afterAll(async () => {
      console.log(`fault matrix ${group.name}: ${JSON.stringify(report)}`);
      await p?.close();
    });

    /** Runs `op` under the group's faults, then checks convergence with the faults off. */
    async function underFaults(label: string, op: () => Promise<{ summary: { result?: string } }>, destroyed = false): Promise<void> {
      const rates = Object.fromEntries(group.kinds.map((kind) => [RATE_KEY[kind], TOTAL_RATE / group.kinds.length]));
      p.emulator.ctx.faults.set({ ...group.settings, ...rates, seed: seedBase + operation++, next: [...group.kinds] });
      const started = performance.now();
      let result: { summary: { result?: string } };
      try {
        result = await op();
      } finally {
        const { injected } = p.emulator.ctx.faults.get();
        p.emulator.ctx.faults.set({});
        report[label] = {
          ms: Math.round(performance.now() - started),
          ...Object.fromEntries(group.kinds.map((kind) => [kind, injected[kind]])),
          ok: injected.ok,
        };
      }
      expect(result.summary.result).toBe("succeeded");
      const { server, state } = await serverAndState(p.stack, p.client);
      expect(state.pending).toBe(0);
      expect(server).toEqual({ tokens: state.tokens, templates: state.templates, emailTemplates: state.emailTemplates });
      if (destroyed) {
        expect(state).toMatchObject({ tokens: [], templates: [] });
        return;
      }
      expect(state.tokens).toHaveLength(TOKEN_NAMES.length);
      expect(state.templates).toHaveLength(2);
      await p.stack.preview({ refresh: true, expectNoChanges: true });
    }

    it("up creates, in one run", async () => {
      await p.setScenario(scenario(group.name, 1, "1", "entry.ready"));
      await underFaults("create", () => p.stack.up());
    }, 240_000);

    it("an in-place update, in one run", async () => {
      await p.setScenario(scenario(group.name, 2, "1", "entry.ready"));
      await underFaults("update", () => p.stack.up());
    }, 240_000);

    it("a replacement (tokens rotated by keepers, templates moved to another source), in one run", async () => {
      await p.setScenario(scenario(group.name, 2, "2", "entry.added"));
      await underFaults("replace", () => p.stack.up());
    }, 240_000);

    it("a refresh, in one run", async () => {
      await underFaults("refresh", () => p.stack.refresh());
    }, 240_000);

    it("a destroy, in one run", async () => {
      await underFaults("destroy", () => p.stack.destroy(), true);
    }, 240_000);
  });
}
