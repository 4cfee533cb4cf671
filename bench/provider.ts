/**
 * The Pulumi provider through the real engine (Automation API, local file backend in a temp dir, the emulator in its
 * own process): wall time of `up` (create), a no-change `preview`, `refresh` and `destroy` of N AppTokens, against
 * the same operations on N no-op dynamic resources (the engine's own floor), in the same run on the same machine.
 *
 * - A scale curve: N = 10, 50, 200, 500 by default. Per size and operation: the ratio to the floor, ms per resource,
 *   the API calls the provider made (session.start should stay at 1 per operation, not N); per size: the checkpoint
 *   bytes per resource after `up` and the peak memory of the dynamic provider process, of both programs.
 * - Where the CPU goes, per operation: the language host (the program), the dynamic provider host, and the rest
 *   (the engine CLI, its checkpoint writes, the plugin launchers), from a probe loaded into the node processes.
 * - A realistic-latency case: the emulator answers every call after `latencyMs`, `up` of `resources` AppTokens,
 *   against the floor's `up` plus the latency bound: ceil(N / P) + 1 sequential calls (P = the engine's default
 *   parallelism, 4 x its CPUs, or the provider's default svc:maxConcurrency if lower; +1 for the one session.start),
 *   with svc:maxConcurrency left at its default.
 *
 * Each figure is the median of `rounds` rounds; within a round the two programs run each operation back to back,
 * which goes first alternating operation by operation and round by round (ABBA), so drift hits both alike.
 * Run alone: `npm run build && npx node dist/bench/provider.js [sizes, e.g. 10,50] [rounds]`.
 */
import { cpus } from "node:os";
import { join } from "node:path";
import { benchStack, repoRoot, type BenchStack } from "./engine";
import { startEmulatorProcess, type EmulatorProcess } from "./emulatorProcess";
import { measured } from "./engineOperation";
import * as connectionSettings from "../provider/core/connection";
import {
  emptyOps,
  figures,
  type LatencyCase,
  mib,
  msOf,
  type Operation,
  type OperationFigures,
  OPERATIONS,
  type Program,
  PROGRAMS,
  type ProviderBenchResult,
  round2,
  type Sample,
  type ScalePoint,
} from "./providerFigures";
import { median } from "./report";

/** The scale curve's default: resources per program at each point (`--sizes`, SVC_BENCH_SIZES). */
export const DEFAULT_SIZES = [10, 50, 200, 500];

export interface ProviderBenchOptions {
  /** Resources per program, one scale point each; default 10, 50, 200, 500. */
  sizes?: number[];
  /** Rounds of the four operations on both programs, per size; default 2. */
  rounds?: number;
  /** The realistic-latency case; default 200 AppTokens at 100 ms. false: skip it. */
  latency?: { resources: number; latencyMs: number } | false;
  /** Deadline of one engine operation; default 5 minutes. */
  operationTimeoutMs?: number;
  /** No new round of a size starts once this much time has passed since the bench started; default 20 minutes. */
  budgetMs?: number;
  /** Progress lines (default: to stderr). */
  log?: (line: string) => void;
  /** Extra environment for the engine of both programs (e.g. PULUMI_SKIP_CHECKPOINTS=true to see what checkpoints cost). */
  engineEnv?: Record<string, string>;
}

export async function benchProvider(options: ProviderBenchOptions = {}): Promise<ProviderBenchResult> {
  const sizes = options.sizes ?? DEFAULT_SIZES;
  const rounds = options.rounds ?? 2;
  const latency = options.latency === undefined ? { resources: 200, latencyMs: 100 } : options.latency;
  const opTimeout = options.operationTimeoutMs ?? 300_000;
  const budgetMs = options.budgetMs ?? 1_200_000;
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench provider] ${line}\n`));
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`sizes must be positive integers, got ${sizes.join(",")}`);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`rounds must be a positive integer, got ${rounds}`);

  const started = performance.now();
  const emulator = await startEmulatorProcess();
  const stacks: Partial<Record<Program, BenchStack>> = {};
  try {
    stacks.noop = await benchStack("noop", { env: options.engineEnv });
    stacks.appTokens = await benchStack("appTokens", { env: options.engineEnv });
    stacks.plugin = await benchStack("appTokensPlugin", { env: options.engineEnv, pluginDir: join(repoRoot, "dist", "pulumi-resource-svc") });
    for (const subject of [stacks.appTokens, stacks.plugin]) {
      await subject.stack.setAllConfig({
        "svc:baseUrl": { value: emulator.target.baseUrl },
        "svc:partnerId": { value: String(emulator.target.partnerId) },
        "svc:adminSecret": { value: emulator.target.adminSecret, secret: true },
      });
    }
    const engine = (await stacks.noop.stack.workspace.pulumiVersion) ?? "unknown";
    const both = stacks as Record<Program, BenchStack>;

    const curve: ScalePoint[] = [];
    for (const resources of sizes) {
      curve.push(await scalePoint(both, emulator, resources, rounds, { opTimeout, log, deadline: started + budgetMs }));
    }
    const latencyCase = latency ? await latencyRun(both, emulator, latency, opTimeout, log) : undefined;
    return { engine, node: process.version, cpus: cpus().length, curve, ...(latencyCase ? { latency: latencyCase } : {}) };
  } finally {
    await Promise.all(Object.values(stacks).map((s) => s.cleanup()));
    await emulator.close();
  }
}

async function scalePoint(
  stacks: Record<Program, BenchStack>,
  emulator: EmulatorProcess,
  resources: number,
  rounds: number,
  { opTimeout, log, deadline }: { opTimeout: number; log: (line: string) => void; deadline: number },
): Promise<ScalePoint> {
  for (const program of PROGRAMS) await stacks[program].stack.setConfig("count", { value: String(resources) });
  const runs: Record<Program, Record<Operation, Sample[]>> = { noop: emptyOps(), appTokens: emptyOps(), plugin: emptyOps() };
  const stateBytes: Record<Program, number[]> = { noop: [], appTokens: [], plugin: [] };
  const emptyStateBytes: Record<Program, number[]> = { noop: [], appTokens: [], plugin: [] };
  let done = 0;
  for (let round = 0; round < rounds; round++) {
    if (round > 0 && performance.now() > deadline) {
      log(`time budget spent: ${resources} resources stop after ${round} round(s)`);
      break;
    }
    for (const op of OPERATIONS) {
      // Which program goes first turns with each operation and round, so drift hits all three alike.
      const turn = (round + OPERATIONS.indexOf(op)) % PROGRAMS.length;
      const order: Program[] = [...PROGRAMS.slice(turn), ...PROGRAMS.slice(0, turn)];
      for (const program of order) {
        const sample = await measured(stacks[program], emulator, op, resources, opTimeout, program !== "noop");
        runs[program][op].push(sample);
        if (op === "up") stateBytes[program].push(stacks[program].checkpointBytes());
        if (op === "destroy") emptyStateBytes[program].push(stacks[program].checkpointBytes());
        log(`${resources} resources, round ${round + 1}/${rounds}: ${op} ${program} ${Math.round(sample.ms)} ms`);
      }
    }
    done++;
  }
  const operations = Object.fromEntries(OPERATIONS.map((op) => [op, figures(runs.noop[op], runs.appTokens[op], runs.plugin[op], resources)])) as Record<
    Operation,
    OperationFigures
  >;
  const peak = (program: Program) => mib(Math.max(...OPERATIONS.flatMap((op) => runs[program][op].map((s) => s.providerRssBytes))));
  return {
    resources,
    rounds: done,
    operations,
    stateBytesPerResource: Object.fromEntries(
      PROGRAMS.map((program) => [program, Math.round((median(stateBytes[program]) - median(emptyStateBytes[program])) / resources)]),
    ) as Record<Program, number>,
    providerPeakMiB: { noop: peak("noop"), appTokens: peak("appTokens"), plugin: peak("plugin") },
    samples: { noop: msOf(runs.noop), appTokens: msOf(runs.appTokens), plugin: msOf(runs.plugin) },
  };
}

async function latencyRun(
  stacks: Record<Program, BenchStack>,
  emulator: EmulatorProcess,
  { resources, latencyMs }: { resources: number; latencyMs: number },
  opTimeout: number,
  log: (line: string) => void,
): Promise<LatencyCase> {
  for (const program of ["noop", "appTokens"] as const) await stacks[program].stack.setConfig("count", { value: String(resources) });
  const floor = await measured(stacks.noop, emulator, "up", resources, opTimeout, false);
  log(`latency case: up noop (${resources}) ${Math.round(floor.ms)} ms`);
  await emulator.setLatency(latencyMs);
  let subject: Sample;
  try {
    subject = await measured(stacks.appTokens, emulator, "up", resources, opTimeout, true);
    log(`latency case: up appTokens (${resources}, ${latencyMs} ms per call) ${Math.round(subject.ms)} ms`);
  } finally {
    await emulator.setLatency(0);
  }
  // Both stacks are emptied again, outside the timing.
  for (const program of ["noop", "appTokens"] as const) await measured(stacks[program], emulator, "destroy", resources, opTimeout, false);
  const parallelism = engineParallelism();
  const maxConcurrency = (connectionSettings as { DEFAULT_MAX_CONCURRENCY?: number }).DEFAULT_MAX_CONCURRENCY ?? null;
  const inFlight = Math.min(parallelism, maxConcurrency ?? Infinity);
  const latencyBoundMs = latencyMs * (Math.ceil(resources / inFlight) + 1);
  const boundMs = Math.round(floor.ms + latencyBoundMs);
  return {
    resources,
    latencyMs,
    parallelism,
    maxConcurrency,
    inFlight,
    floorMs: Math.round(floor.ms),
    latencyBoundMs,
    boundMs,
    appTokensMs: Math.round(subject.ms),
    ratioToBound: round2(subject.ms / boundMs),
    ratioToFloor: round2(subject.ms / floor.ms),
    calls: subject.calls ?? {},
  };
}

/** The engine's default `--parallel` for up: 4 x GOMAXPROCS, unless PULUMI_PARALLEL says otherwise. */
function engineParallelism(): number {
  const fromEnv = Number(process.env.PULUMI_PARALLEL);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 4 * cpus().length;
}

if (require.main === module) {
  const [sizes, rounds] = process.argv.slice(2);
  benchProvider({ sizes: sizes ? sizes.split(",").map(Number) : undefined, rounds: rounds ? Number(rounds) : undefined }).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
