/**
 * The fault matrix through the real engine (used by test/e2e/faultMatrix.*.test.ts): for each kind of fault, one stack
 * (4 AppTokens and 2 templates) goes through up (create), an in-place update, a replacement, a refresh and a destroy,
 * with the emulator injecting that fault at a seeded rate (40% of requests in all, with 503s beside the kind). After
 * each operation: it succeeded in one run, the platform holds exactly the objects the state records, and
 * `preview --refresh --expect-no-changes` passes. The kinds of one file run one after the other; the engine's own
 * parallelism runs the resources of each operation at once. The seed fixes the schedule for a given request order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultConfig, FaultKind } from "../../emulator/middleware/faults";
import { serverAndState } from "./faultChecks";
import { platformStack, type PlatformStack, type Scenario } from "./platformStack";

export interface FaultKindCase {

  name: string;
  faults: FaultConfig;
  /** Extra stack config (the slow kind needs an attempt timeout shorter than the delay). */
  config?: Record<string, string>;
}

export const FAULT_KINDS: FaultKindCase[] = [
  { name: "503", faults: { errorRate: 0.4, seed: 11 } },
  { name: "429", faults: { throttleRate: 0.3, errorRate: 0.1, retryAfterSeconds: 1, seed: 12 } },
  { name: "drop", faults: { dropRate: 0.3, errorRate: 0.1, seed: 13 } },
  { name: "commitThenDrop", faults: { commitThenDropRate: 0.3, errorRate: 0.1, seed: 14 } },
  { name: "commitThenError", faults: { commitThenErrorRate: 0.3, errorRate: 0.1, seed: 15 } },
  { name: "slow", faults: { slowRate: 0.25, errorRate: 0.1, slowMs: 1_500, seed: 16 }, config: { "svc:requestTimeoutMs": "800" } },
];

/** The fault kind each case is about (the rest of its 40% is 503s). */
const PRIMARY: Record<string, FaultKind> = {
  "503": "error",
  "429": "throttle",
  drop: "drop",
  commitThenDrop: "commitThenDrop",
  commitThenError: "commitThenError",
  slow: "slow",
};

const TOKEN_NAMES = ["a", "b", "c", "d"];

function scenario(kind: string, version: number, rotate: string, event: string): Scenario {
  // Every token differs in its fields (a lost create is recognised by them); a and b rotate with the keepers.
  const token = (name: string) => ({ description: `${kind} ${name} v${version}`, sessionPrivileges: `list:${name}`, keepers: name === "a" || name === "b" ? { rotate } : undefined });
  const template = (name: string, named: boolean) => ({
    event,
    name: `${kind} ${name}`,
    ...(named ? { systemName: `${name}_${kind}` } : {}),
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

export function faultMatrix(kinds: FaultKindCase[]): void {
describe.each(kinds)("fault matrix: $name", (kind) => {
  let p: PlatformStack;
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    p = await platformStack({ stackName: `faults-${kind.name.toLowerCase()}` });
    for (const [key, value] of Object.entries(kind.config ?? {})) await p.stack.setConfig(key, { value });
  }, 120_000);
  afterAll(async () => {
    console.log(`fault matrix ${kind.name}: ${JSON.stringify(timings)}`);
    await p?.close();
  });

  /** Runs `op` under the kind's faults, then checks convergence with the faults off. */
  async function underFaults(label: string, op: () => Promise<{ summary: { result?: string } }>, expectEmpty = false): Promise<void> {
    const started = performance.now();
    // Each operation its own seed, and its first two requests (the session start among them) faulted for sure.
    const primary = PRIMARY[kind.name] ?? "error";
    p.emulator.ctx.faults.set({ ...kind.faults, seed: (kind.faults.seed ?? 1) * 10 + Object.keys(timings).length, next: [primary, primary] });
    let result: { summary: { result?: string } };
    try {
      result = await op();
    } finally {
      const injected = p.emulator.ctx.faults.get().injected;
      p.emulator.ctx.faults.set({});
      timings[label] = Math.round(performance.now() - started);
      timings[`${label}Faults`] = Object.entries(injected).reduce((sum, [k, n]) => (k === "ok" ? sum : sum + n), 0);
    }
    expect(result.summary.result).toBe("succeeded");
    const { server, state } = await serverAndState(p.stack, p.client);
    expect(state.pending).toBe(0);
    expect(server).toEqual({ tokens: state.tokens, templates: state.templates });
    if (expectEmpty) {
      expect(state.tokens).toEqual([]);
    } else {
      expect(state.tokens).toHaveLength(TOKEN_NAMES.length);
      expect(state.templates).toHaveLength(2);
      await p.stack.preview({ refresh: true, expectNoChanges: true });
    }
  }

  it("up creates, in one run", async () => {
    await p.setScenario(scenario(kind.name, 1, "1", "entry.ready"));
    await underFaults("create", () => p.stack.up());
  }, 240_000);

  it("an in-place update, in one run", async () => {
    await p.setScenario(scenario(kind.name, 2, "1", "entry.ready"));
    await underFaults("update", () => p.stack.up());
  }, 240_000);

  it("a replacement (tokens rotated by keepers, templates moved to another source), in one run", async () => {
    await p.setScenario(scenario(kind.name, 2, "2", "entry.added"));
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
