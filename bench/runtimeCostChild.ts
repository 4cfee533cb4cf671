/**
 * One process of bench/runtimeCost.ts: loads a provider runtime, configures it with the emulator's connection, and
 * creates, reads or deletes N AppTokens, 8 at once (the runtime's default svc:maxConcurrency); prints the CPU of
 * the load and of the calls as one JSON line. Created tokens and their state go to a file for the next process.
 *   SVC_RUNTIME_COST_TARGET=<target JSON> node runtimeCostChild.js <runtime.js> create|read|delete <file> <N>
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { EmulatorTarget } from "./emulatorProcess";

export interface RuntimeCostResult {
  op: string;
  n: number;
  loadCpuMs: number;
  callsCpuMs: number;
}

type Provider = Record<"check" | "create" | "read" | "delete", (...args: unknown[]) => Promise<Record<string, unknown>>>;
type Runtime = { configure(config: { get(key: string): string | undefined }): void; appToken: Provider };

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function main(): Promise<void> {
  const [runtimePath, op, file, count] = process.argv.slice(2) as [string, "create" | "read" | "delete", string, string];
  const target = JSON.parse(process.env.SVC_RUNTIME_COST_TARGET ?? "{}") as EmulatorTarget;
  const n = Number(count);
  const loadStart = cpuMs();
  const runtime = require(runtimePath) as Runtime;
  const config: Record<string, string> = { "svc:baseUrl": target.baseUrl, "svc:partnerId": String(target.partnerId), "svc:adminSecret": target.adminSecret };
  runtime.configure({ get: (key) => config[key] });
  const loadCpuMs = cpuMs() - loadStart;

  const saved = op === "create" ? [] : (JSON.parse(readFileSync(file, "utf8")) as Array<{ id: string; outs: Record<string, unknown> }>);
  const results: Array<{ id: string; outs: Record<string, unknown> }> = [];
  const callsStart = cpuMs();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      if (op === "create") {
        const checked = await runtime.appToken.check({}, { description: `runtime cost ${i}` });
        results[i] = (await runtime.appToken.create(checked.inputs)) as { id: string; outs: Record<string, unknown> };
      } else if (op === "read") {
        const read = await runtime.appToken.read(saved[i]!.id, saved[i]!.outs);
        if (read.id !== saved[i]!.id) throw new Error(`read ${saved[i]!.id} gave ${String(read.id)}`);
      } else {
        await runtime.appToken.delete(saved[i]!.id, saved[i]!.outs);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const callsCpuMs = cpuMs() - callsStart;
  if (op === "create") writeFileSync(file, JSON.stringify(results));
  const result: RuntimeCostResult = { op, n, loadCpuMs, callsCpuMs };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0); // the runtime's client keeps its connections open, as in the provider host
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
