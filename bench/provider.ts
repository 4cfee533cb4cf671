/**
 * The Pulumi provider through the real engine (Automation API, local file backend in a temp dir, the emulator
 * in-process on port 0): wall time of `up` (create), a no-change `preview`, `refresh` and `destroy` of N AppTokens,
 * against the same operations on N no-op dynamic resources (the engine's own floor), in the same run on the same
 * machine. Also the API calls the provider made per operation, from the emulator's request stats: `session.start`
 * should stay at a handful per operation, not one per resource. Each figure is the median of `rounds` rounds;
 * the two programs alternate which goes first, operation by operation, so drift hits both alike.
 * Run alone: `npm run build && npx node dist/bench/provider.js [resources] [rounds]`.
 */
import { startEmulator } from "../emulator";
import { benchStack, type BenchStack } from "./engine";
import { median } from "./report";

export const OPERATIONS = ["up", "preview", "refresh", "destroy"] as const;
export type Operation = (typeof OPERATIONS)[number];
type Program = "noop" | "appTokens";

export interface ProviderBenchOptions {
  /** Resources in each program; default 50. */
  resources?: number;
  /** Rounds of the four operations on both programs; default 2. */
  rounds?: number;
  /** Deadline of one engine operation; default 5 minutes. */
  operationTimeoutMs?: number;
  /** No new round starts once this much time has passed; default 10 minutes. */
  budgetMs?: number;
  /** Progress lines (default: to stderr). */
  log?: (line: string) => void;
}

export interface OperationFigures {
  /** Median wall time of the operation on N no-op resources (the baseline). */
  noopMs: number;
  /** Median wall time of the operation on N AppTokens. */
  appTokensMs: number;
  /** appTokensMs / noopMs, both measured in this run. */
  ratio: number;
  /** (appTokensMs - noopMs) / N: what one AppToken adds over the engine's floor. */
  extraMsPerResource: number;
  /** Median calls the provider made during the AppTokens operation. */
  sessionStart: number;
  appTokenStartSession: number;
  apiCalls: number;
  /** Median calls per `service.action` during the AppTokens operation. */
  calls: Record<string, number>;
}

export interface ProviderBenchResult {
  resources: number;
  rounds: number;
  engine: string;
  node: string;
  operations: Record<Operation, OperationFigures>;
  /** Every measured wall time (ms), per program and operation, in round order. */
  samples: Record<Program, Record<Operation, number[]>>;
}

export async function benchProvider(options: ProviderBenchOptions = {}): Promise<ProviderBenchResult> {
  const resources = options.resources ?? 50;
  const rounds = options.rounds ?? 2;
  const opTimeout = options.operationTimeoutMs ?? 300_000;
  const budgetMs = options.budgetMs ?? 600_000;
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench provider] ${line}\n`));
  if (!Number.isInteger(resources) || resources < 1) throw new Error(`resources must be a positive integer, got ${resources}`);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`rounds must be a positive integer, got ${rounds}`);

  const started = performance.now();
  const emulator = await startEmulator({ port: 0, quiet: true });
  const stacks: Partial<Record<Program, BenchStack>> = {};
  try {
    stacks.noop = await benchStack("noop");
    stacks.appTokens = await benchStack("appTokens");
    await stacks.noop.stack.setConfig("count", { value: String(resources) });
    await stacks.appTokens.stack.setAllConfig({
      count: { value: String(resources) },
      "svc:baseUrl": { value: emulator.baseUrl },
      "svc:partnerId": { value: String(emulator.partnerId) },
      "svc:adminSecret": { value: emulator.adminSecret, secret: true },
    });
    const engine = (await stacks.noop.stack.workspace.pulumiVersion) ?? "unknown";

    const samples = emptySamples();
    const calls: Record<Operation, Record<string, number>[]> = { up: [], preview: [], refresh: [], destroy: [] };
    let done = 0;
    for (let round = 0; round < rounds; round++) {
      if (round > 0 && performance.now() - started > budgetMs) {
        log(`time budget of ${Math.round(budgetMs / 1000)} s spent: stopping after ${round} round(s)`);
        break;
      }
      for (const op of OPERATIONS) {
        const order: Program[] = (round + OPERATIONS.indexOf(op)) % 2 === 0 ? ["noop", "appTokens"] : ["appTokens", "noop"];
        for (const program of order) {
          emulator.ctx.stats.reset();
          const ms = await runOperation(stacks[program]!, op, resources, opTimeout);
          samples[program][op].push(ms);
          if (program === "appTokens") calls[op].push(emulator.ctx.stats.snapshot());
          log(`round ${round + 1}/${rounds} ${op} ${program} (${resources}): ${Math.round(ms)} ms`);
        }
      }
      done++;
    }

    const operations = Object.fromEntries(
      OPERATIONS.map((op) => [op, figures(samples.noop[op], samples.appTokens[op], calls[op], resources)]),
    ) as Record<Operation, OperationFigures>;
    return { resources, rounds: done, engine, node: process.version, operations, samples };
  } finally {
    await Promise.all(Object.values(stacks).map((s) => s.cleanup()));
    await emulator.close();
  }
}

/** Runs one engine operation, checks it did what the bench assumes (so a failure is never timed as a success). */
async function runOperation({ stack }: BenchStack, op: Operation, resources: number, timeoutMs: number): Promise<number> {
  const signal = AbortSignal.timeout(timeoutMs);
  const all = resources + 1; // the resources and the stack itself
  const start = performance.now();
  let changes: Record<string, number> | undefined;
  switch (op) {
    case "up":
      changes = (await stack.up({ signal })).summary.resourceChanges;
      break;
    case "preview":
      changes = (await stack.preview({ signal })).changeSummary;
      break;
    case "refresh":
      changes = (await stack.refresh({ signal })).summary.resourceChanges;
      break;
    case "destroy":
      changes = (await stack.destroy({ signal })).summary.resourceChanges;
      break;
  }
  const ms = performance.now() - start;
  const expected = { up: { create: all }, preview: { same: all }, refresh: { same: all }, destroy: { delete: all } }[op];
  if (JSON.stringify(changes ?? {}) !== JSON.stringify(expected)) {
    throw new Error(`${op} changed ${JSON.stringify(changes)}, expected ${JSON.stringify(expected)}`);
  }
  return ms;
}

function figures(noop: number[], appTokens: number[], calls: Record<string, number>[], resources: number): OperationFigures {
  const noopMs = Math.round(median(noop));
  const appTokensMs = Math.round(median(appTokens));
  const keys = [...new Set(calls.flatMap((c) => Object.keys(c)))].sort();
  const perKey = Object.fromEntries(keys.map((k) => [k, median(calls.map((c) => c[k] ?? 0))]));
  return {
    noopMs,
    appTokensMs,
    ratio: round2(appTokensMs / noopMs),
    extraMsPerResource: round2((appTokensMs - noopMs) / resources),
    sessionStart: perKey["session.start"] ?? 0,
    appTokenStartSession: perKey["appToken.startSession"] ?? 0,
    apiCalls: median(calls.map((c) => Object.values(c).reduce((a, b) => a + b, 0))),
    calls: perKey,
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

function emptySamples(): Record<Program, Record<Operation, number[]>> {
  const one = (): Record<Operation, number[]> => ({ up: [], preview: [], refresh: [], destroy: [] });
  return { noop: one(), appTokens: one() };
}

if (require.main === module) {
  const [resources, rounds] = process.argv.slice(2).map(Number);
  benchProvider({ resources: resources || undefined, rounds: rounds || undefined }).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
