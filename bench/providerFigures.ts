/**
 * The provider part's figures (bench/provider.ts): the operations and programs it compares, what one timed operation
 * gives (a sample), and the medians and ratios of a size's samples, as the JSON report holds them.
 */
import { median } from "./report";

export const OPERATIONS = ["up", "preview", "refresh", "destroy"] as const;
export type Operation = (typeof OPERATIONS)[number];
/** The floor (no-op dynamic resources), AppTokens on the dynamic provider, AppTokens on the native plugin. */
export const PROGRAMS = ["noop", "appTokens", "plugin"] as const;
export type Program = (typeof PROGRAMS)[number];

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

/** What one timed operation gives (engineOperation.ts): wall time, CPU per process kind, the provider's peak, API calls. */
export interface Sample {
  ms: number;
  cpu: CpuFigures;
  providerRssBytes: number;
  calls?: Record<string, number>;
}

/** The figures of one operation at one size, from the samples of its rounds on each program. */
export function figures(noop: Sample[], appTokens: Sample[], plugin: Sample[], resources: number): OperationFigures {
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

export const round2 = (x: number): number => Math.round(x * 100) / 100;
const totalCpu = (s: Sample): number => s.cpu.program + s.cpu.provider + s.cpu.rest;
export const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;

export function emptyOps<T>(): Record<Operation, T[]> {
  return { up: [], preview: [], refresh: [], destroy: [] };
}

export function msOf(runs: Record<Operation, Sample[]>): Record<Operation, number[]> {
  return Object.fromEntries(OPERATIONS.map((op) => [op, runs[op].map((s) => Math.round(s.ms))])) as Record<Operation, number[]>;
}
