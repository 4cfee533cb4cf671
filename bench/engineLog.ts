/**
 * The CPU that diagnostics through the engine add to an `up` of N AppTokens on the native plugin (target: under 2%).
 * Two stacks of bench/fixtures/appTokensPlugin on one emulator process, one with the plugin's engine log turned off
 * (SVC_ENGINE_LOG=off), rounds alternating between them (up measured, destroy not): the CPU of every process of the
 * operation (the engine CLI and the children it waited for) and of the plugin alone (the probe), medians.
 * A clean platform sends one debug line per create (its summary); the cost per line is measured too, on a fake
 * engine in this process (client and server side together), so the A/B difference can be checked against
 * lines x cost, which is steadier than a difference of two noisy totals on a shared machine.
 *
 *   node dist/bench/engineLog.js [resources] [rounds]
 */
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import { join } from "node:path";
import { EngineLog } from "../plugin/engineLog";
import { benchStack, repoRoot, type BenchStack } from "./engine";
import { startEmulatorProcess } from "./emulatorProcess";
import { childrenCpuMicros } from "./engineOperation";
import { fmt, median, table } from "./report";
import type { BenchPart } from "./benchPart";

export interface EngineLogBenchResult {
  resources: number;
  rounds: number;
  /** CPU seconds of the whole `up` (engine, language host, plugin), medians, engine log off and on. */
  upCpuSeconds: { off: number; on: number };
  /** CPU seconds of the plugin process alone, medians. */
  pluginCpuSeconds: { off: number; on: number };
  /** (on - off) / off of the whole up's CPU, in percent (noisy: two totals of a shared machine). */
  addedPercent: number;
  /** The plugin's own extra CPU (on - off) as a share of the whole up's CPU with the log off, in percent. */
  pluginAddedPercent: number;
  /** Lines sent to the engine per up on a clean platform (one summary per create). */
  linesPerUp: number;
  /** CPU per line sent (client and fake engine in one process), µs. */
  cpuMicrosPerLine: number;
  /** linesPerUp x cpuMicrosPerLine / the whole up's CPU with the log off, in percent. */
  estimatedPercent: number;
  /** Wall time of each up, ms, in round order. */
  upMs: { off: number[]; on: number[] };
}

export async function benchEngineLog(options: { resources?: number; rounds?: number; log?: (line: string) => void } = {}): Promise<EngineLogBenchResult> {
  const resources = options.resources ?? 200;
  const rounds = options.rounds ?? 5;
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench engineLog] ${line}\n`));
  const emulator = await startEmulatorProcess();
  const pluginDir = join(repoRoot, "dist", "pulumi-resource-svc");
  const stacks: Partial<Record<"off" | "on", BenchStack>> = {};
  try {
    stacks.off = await benchStack("appTokensPlugin", { pluginDir, env: { SVC_ENGINE_LOG: "off" } });
    stacks.on = await benchStack("appTokensPlugin", { pluginDir });
    for (const bench of [stacks.off, stacks.on]) {
      await bench.stack.setAllConfig({
        "svc:baseUrl": { value: emulator.target.baseUrl },
        "svc:partnerId": { value: String(emulator.target.partnerId) },
        "svc:adminSecret": { value: emulator.target.adminSecret, secret: true },
        count: { value: String(resources) },
      });
    }
    const samples = { off: [] as { cpu: number; plugin: number; ms: number }[], on: [] as { cpu: number; plugin: number; ms: number }[] };
    for (let round = 1; round <= rounds; round++) {
      // Alternate which goes first: a machine that slows down during the run weighs on both alike.
      for (const mode of round % 2 === 1 ? (["off", "on"] as const) : (["on", "off"] as const)) {
        const bench = stacks[mode] as BenchStack;
        bench.clearProbe();
        const before = childrenCpuMicros();
        const started = performance.now();
        const up = await bench.stack.up({ signal: AbortSignal.timeout(300_000) });
        const ms = Math.round(performance.now() - started);
        const cpu = (childrenCpuMicros() - before) / 1e6;
        if (up.summary.resourceChanges?.create !== resources + 1)
          throw new Error(`up of ${resources} tokens (${mode}): ${JSON.stringify(up.summary.resourceChanges)}`);
        samples[mode].push({ cpu, plugin: (bench.probed().provider?.cpuMicros ?? 0) / 1e6, ms });
        log(`round ${round} ${mode}: up ${ms} ms, ${cpu.toFixed(2)} s CPU`);
        await bench.stack.destroy({ signal: AbortSignal.timeout(300_000) });
      }
    }
    const cpuMicrosPerLine = await perLineCost();
    const off = median(samples.off.map((s) => s.cpu));
    const on = median(samples.on.map((s) => s.cpu));
    const linesPerUp = resources;
    return {
      resources,
      rounds,
      upCpuSeconds: { off: round2(off), on: round2(on) },
      pluginCpuSeconds: { off: round2(median(samples.off.map((s) => s.plugin))), on: round2(median(samples.on.map((s) => s.plugin))) },
      addedPercent: round2(((on - off) / off) * 100),
      pluginAddedPercent: round2(((median(samples.on.map((s) => s.plugin)) - median(samples.off.map((s) => s.plugin))) / off) * 100),
      linesPerUp,
      cpuMicrosPerLine: Math.round(cpuMicrosPerLine),
      estimatedPercent: round2(((linesPerUp * cpuMicrosPerLine) / 1e6 / off) * 100),
      upMs: { off: samples.off.map((s) => s.ms), on: samples.on.map((s) => s.ms) },
    };
  } finally {
    await Promise.all(Object.values(stacks).map((s) => s.cleanup()));
    await emulator.close();
  }
}

/** CPU per line through EngineLog to a fake engine in this process, 2,000 lines, 50 in flight (µs). */
async function perLineCost(): Promise<number> {
  const server = new grpc.Server();
  let received = 0;
  server.addService(engrpc.EngineService, {
    log: (_call: unknown, callback: (error: null, value: emptyproto.Empty) => void) => {
      received++;
      callback(null, new emptyproto.Empty());
    },
  } as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  const engine = new EngineLog(`127.0.0.1:${port}`);
  const urn = "urn:pulumi:bench::svc-bench::svc:index:AppToken::token-0";
  const send = async (lines: number) => {
    for (let i = 0; i < lines; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => engine.log("debug", `create: 2 API requests, 0 retries, ${i + j} ms`, urn)));
    }
  };
  try {
    await send(200); // connect and warm up
    const before = process.cpuUsage();
    await send(2_000);
    const used = process.cpuUsage(before);
    if (received !== 2_200) throw new Error(`the fake engine received ${received} of 2200 lines`);
    return (used.user + used.system) / 2_000;
  } finally {
    engine.close();
    server.forceShutdown();
  }
}

export function renderEngineLog(r: EngineLogBenchResult): string {
  return [
    `  up of ${r.resources} AppTokens on the plugin, engine log off / on (SVC_ENGINE_LOG=off), medians of ${r.rounds} rounds each, clean platform`,
    table(
      ["", "off", "on", "added"],
      [
        ["CPU of the whole up, s", fmt(r.upCpuSeconds.off, 2), fmt(r.upCpuSeconds.on, 2), `${fmt(r.addedPercent, 2)}%`],
        ["CPU of the plugin, s", fmt(r.pluginCpuSeconds.off, 2), fmt(r.pluginCpuSeconds.on, 2), `${fmt(r.pluginAddedPercent, 2)}% of the up`],
        ["up ms (median)", fmt(median(r.upMs.off)), fmt(median(r.upMs.on)), ""],
      ],
    ),
    `  lines sent per up: ${r.linesPerUp} (one debug summary per create); ${fmt(r.cpuMicrosPerLine)} µs of CPU per line (client + fake engine);`,
    `  estimated cost = lines x µs/line / whole up's CPU = ${fmt(r.estimatedPercent, 2)}% (target: under 2%; the A/B difference above is within the noise of two totals)`,
  ].join("\n");
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

export const engineLogPart: BenchPart<EngineLogBenchResult> = {
  title: "Diagnostics through the engine: the CPU they add to an up",
  run: (options) => benchEngineLog({ resources: options.resources ?? 200 }),
  render: renderEngineLog,
};

if (require.main === module) {
  const [resources, rounds] = process.argv.slice(2).map(Number);
  benchEngineLog({ resources: resources || undefined, rounds: rounds || undefined }).then(
    (result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n${renderEngineLog(result)}\n`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
