/**
 * One timed engine operation of the bench (`up`, `preview`, `refresh`, `destroy` through the Automation API): its
 * wall time, checked against the changes it should make, the CPU of the processes it ran and the provider host's
 * peak memory (from the probe loaded into them).
 */
import { readFileSync } from "node:fs";
import type { BenchStack } from "./engine";
import type { EmulatorProcess } from "./emulatorProcess";
import type { Operation, Sample } from "./providerFigures";

/** One operation, with its wall time, the CPU of its processes and the provider host's peak memory. */
export async function measured(
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
