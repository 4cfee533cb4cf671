/**
 * What the provider runtime itself costs in a new process, without the engine: for each runtime file given (this
 * build's by default; another tree's dist/provider/runtime/index.js to compare), and each N, a fresh Node process
 * loads it, configures it as the dynamic provider host does, then reads (as `refresh` does) or deletes (as `destroy`
 * does) N AppTokens, 8 at once, against the emulator in its own process. It prints the CPU of the load and of the
 * calls (process.cpuUsage: all threads, so the JIT's and the GC's background work count). Medians of the rounds;
 * the runtimes alternate within each round. Not part of `npm run bench`.
 *   npm run build && npx node dist/bench/runtimeCost.js [--sizes 1,10,50,200] [--rounds 5] [runtime.js ...]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startEmulatorProcess, type EmulatorTarget } from "./emulatorProcess";
import { fmt, median, table } from "./report";
import type { RuntimeCostResult } from "./runtimeCostChild";

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

async function main(): Promise<void> {
  const sizes = option("--sizes", "1,10,50,200").split(",").map(Number);
  const rounds = Number(option("--rounds", "5"));
  const runtimes = process.argv
    .slice(2)
    .filter((arg, i, all) => !arg.startsWith("--") && !all[i - 1]?.startsWith("--"))
    .map((path) => resolve(path));
  if (runtimes.length === 0) runtimes.push(join(__dirname, "..", "provider", "runtime", "index.js"));
  const child = join(__dirname, "runtimeCostChild.js");
  const work = mkdtempSync(join(tmpdir(), "pulumi-svc-runtime-cost-"));
  const emulator = await startEmulatorProcess();
  const run = (runtime: string, op: "create" | "read" | "delete", file: string, n: number, target: EmulatorTarget): RuntimeCostResult =>
    JSON.parse(
      execFileSync(process.execPath, [child, runtime, op, file, String(n)], {
        encoding: "utf8",
        cwd: work,
        // The connection (with the emulator's admin secret) goes by the environment: a failed command's message
        // repeats its arguments.
        env: { ...process.env, SVC_RUNTIME_COST_TARGET: JSON.stringify(target) },
      }),
    ) as RuntimeCostResult;
  try {
    const rows: string[][] = [];
    for (const n of sizes) {
      const figures = runtimes.map(() => ({ load: [] as number[], read: [] as number[], del: [] as number[] }));
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? runtimes.map((_, i) => i) : runtimes.map((_, i) => runtimes.length - 1 - i);
        for (const i of order) {
          const file = join(work, `tokens-${n}-${round}-${i}.json`);
          run(runtimes[i]!, "create", file, n, emulator.target);
          const read = run(runtimes[i]!, "read", file, n, emulator.target);
          const del = run(runtimes[i]!, "delete", file, n, emulator.target);
          figures[i]!.load.push(read.loadCpuMs, del.loadCpuMs);
          figures[i]!.read.push(read.callsCpuMs);
          figures[i]!.del.push(del.callsCpuMs);
        }
      }
      runtimes.forEach((runtime, i) => {
        const f = figures[i]!;
        rows.push([
          String(n),
          runtime,
          fmt(median(f.load), 1),
          fmt(median(f.read), 1),
          fmt(median(f.read) / n, 2),
          fmt(median(f.del), 1),
          fmt(median(f.del) / n, 2),
        ]);
      });
    }
    process.stdout.write(
      `Provider runtime in a new process: CPU ms (medians of ${rounds} rounds; load = require + configure)\n${table(
        ["N", "runtime", "load", "N reads", "per read", "N deletes", "per delete"],
        rows,
      )}\n`,
    );
  } finally {
    await emulator.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
