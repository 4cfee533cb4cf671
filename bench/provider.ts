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
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { benchStack, repoRoot, type BenchStack } from "./engine";
import { startEmulatorProcess, type EmulatorProcess } from "./emulatorProcess";
import { DEFAULT_SIZES } from "./parts";
import * as connectionSettings from "../provider/core/connection";
import { median } from "./report";

export const OPERATIONS = ["up", "preview", "refresh", "destroy"] as const;
export type Operation = (typeof OPERATIONS)[number];
/** The floor (no-op dynamic resources), AppTokens on the dynamic provider, AppTokens on the native plugin. */
export const PROGRAMS = ["noop", "appTokens", "plugin"] as const;
export type Program = (typeof PROGRAMS)[number];

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

export interface CpuFigures {
  /** Language host running the program (s of CPU). */
  program: number;
  /** Dynamic provider host (s of CPU). */
  provider: number;
  /** Everything else the operation's processes used: the engine CLI (with its checkpoint writes), plugin launchers. */
  rest: number;
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
  /** appTokensMs / N and noopMs / N. */
  appTokensMsPerResource: number;
  noopMsPerResource: number;
  /** Median CPU seconds per process kind, of each program. */
  cpu: Record<Program, CpuFigures>;
  /**
   * The AppTokens operation's CPU over the floor's (all the operation's processes, medians): on a machine shared with
   * other work the wall times swing with the load, the CPU an operation needs much less.
   */
  cpuRatio: number;
  /** The same AppTokens on the native plugin: median wall time, its ratio to the floor, its CPU ratio to the floor's. */
  pluginMs: number;
  pluginRatio: number;
  pluginCpuRatio: number;
  /** pluginMs / appTokensMs: the plugin against the dynamic provider, same run. */
  pluginToDynamic: number;
  pluginApiCalls: number;
  /** Median calls the provider made during the AppTokens operation. */
  sessionStart: number;
  appTokenStartSession: number;
  apiCalls: number;
  /** Median calls per `service.action` during the AppTokens operation. */
  calls: Record<string, number>;
}

export interface ScalePoint {
  resources: number;
  rounds: number;
  operations: Record<Operation, OperationFigures>;
  /** Checkpoint file bytes per resource: (the file after `up` - the file after `destroy`) / N, per program. */
  stateBytesPerResource: Record<Program, number>;
  /** Peak resident memory of the dynamic provider process over all operations, MiB, per program. */
  providerPeakMiB: Record<Program, number>;
  /** Every measured wall time (ms), per program and operation, in round order. */
  samples: Record<Program, Record<Operation, number[]>>;
}

export interface LatencyCase {
  resources: number;
  latencyMs: number;
  /** The engine's default parallelism for `up` here: 4 x GOMAXPROCS (= CPUs). */
  parallelism: number;
  /**
   * svc:maxConcurrency is not set, so the provider's default applies: its value (requests in flight per connection),
   * or null in a release without that limit (then only the engine's parallelism bounds the calls in flight).
   */
  maxConcurrency: number | null;
  /** min(parallelism, maxConcurrency): calls in flight at most. */
  inFlight: number;
  /** The floor's `up` of N no-op resources, no latency (ms). */
  floorMs: number;
  /** latencyMs x (ceil(N / inFlight) + 1): the calls' wall time if `inFlight` calls are always in flight. */
  latencyBoundMs: number;
  /** floorMs + latencyBoundMs. */
  boundMs: number;
  /** The AppTokens `up` against the emulator answering after latencyMs. */
  appTokensMs: number;
  /** appTokensMs / boundMs: at most about 1 when the provider keeps the engine's parallelism. */
  ratioToBound: number;
  /** appTokensMs / floorMs. */
  ratioToFloor: number;
  calls: Record<string, number>;
}

export interface ProviderBenchResult {
  engine: string;
  node: string;
  cpus: number;
  curve: ScalePoint[];
  latency?: LatencyCase;
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

interface Sample {
  ms: number;
  cpu: CpuFigures;
  providerRssBytes: number;
  calls?: Record<string, number>;
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

/** One operation, with its wall time, the CPU of its processes and the provider host's peak memory. */
async function measured(
  bench: BenchStack,
  emulator: EmulatorProcess,
  op: Operation,
  resources: number,
  opTimeout: number,
  countCalls: boolean,
): Promise<Sample> {
  if (countCalls) await emulator.resetStats();
  bench.clearProbe();
  const cpuBefore = childrenCpuMicros();
  const ms = await runOperation(bench, op, resources, opTimeout);
  const childCpu = childrenCpuMicros() - cpuBefore;
  const probed = bench.probed();
  const program = (probed.program?.cpuMicros ?? 0) / 1e6;
  const provider = (probed.provider?.cpuMicros ?? 0) / 1e6;
  return {
    ms,
    cpu: { program, provider, rest: Math.max(0, childCpu / 1e6 - program - provider) },
    providerRssBytes: probed.provider?.maxRssBytes ?? 0,
    ...(countCalls ? { calls: await emulator.stats() } : {}),
  };
}

/**
 * CPU time of this process's finished children and the descendants they waited for (/proc/self/stat cutime +
 * cstime, in clock ticks of 10 ms): the engine CLI the Automation API runs, its language host and plugins.
 */
export function childrenCpuMicros(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10_000; // fields 16 and 17 of stat(5), counted after "comm"
  } catch {
    return 0;
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

function figures(noop: Sample[], appTokens: Sample[], plugin: Sample[], resources: number): OperationFigures {
  const noopMs = Math.round(median(noop.map((s) => s.ms)));
  const appTokensMs = Math.round(median(appTokens.map((s) => s.ms)));
  const pluginMs = Math.round(median(plugin.map((s) => s.ms)));
  const calls = appTokens.map((s) => s.calls ?? {});
  const keys = [...new Set(calls.flatMap((c) => Object.keys(c)))].sort();
  const perKey = Object.fromEntries(keys.map((k) => [k, median(calls.map((c) => c[k] ?? 0))]));
  const cpu = (samples: Sample[]): CpuFigures => ({
    program: round2(median(samples.map((s) => s.cpu.program))),
    provider: round2(median(samples.map((s) => s.cpu.provider))),
    rest: round2(median(samples.map((s) => s.cpu.rest))),
  });
  return {
    noopMs,
    appTokensMs,
    ratio: round2(appTokensMs / noopMs),
    extraMsPerResource: round2((appTokensMs - noopMs) / resources),
    appTokensMsPerResource: round2(appTokensMs / resources),
    noopMsPerResource: round2(noopMs / resources),
    cpu: { noop: cpu(noop), appTokens: cpu(appTokens), plugin: cpu(plugin) },
    cpuRatio: round2(median(appTokens.map(totalCpu)) / median(noop.map(totalCpu))),
    pluginMs,
    pluginRatio: round2(pluginMs / noopMs),
    pluginCpuRatio: round2(median(plugin.map(totalCpu)) / median(noop.map(totalCpu))),
    pluginToDynamic: round2(pluginMs / appTokensMs),
    pluginApiCalls: median(plugin.map((s) => Object.values(s.calls ?? {}).reduce((a, b) => a + b, 0))),
    sessionStart: perKey["session.start"] ?? 0,
    appTokenStartSession: perKey["appToken.startSession"] ?? 0,
    apiCalls: median(calls.map((c) => Object.values(c).reduce((a, b) => a + b, 0))),
    calls: perKey,
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const totalCpu = (s: Sample): number => s.cpu.program + s.cpu.provider + s.cpu.rest;
const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;

function emptyOps<T>(): Record<Operation, T[]> {
  return { up: [], preview: [], refresh: [], destroy: [] };
}

function msOf(runs: Record<Operation, Sample[]>): Record<Operation, number[]> {
  return Object.fromEntries(OPERATIONS.map((op) => [op, runs[op].map((s) => Math.round(s.ms))])) as Record<Operation, number[]>;
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
