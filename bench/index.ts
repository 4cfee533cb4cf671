/**
 * `npm run bench`: the parts of the table in parts.ts (the emulator's throughput, the sdk against raw undici, the
 * provider against a no-op dynamic resource, and the rest), measured in one run on this machine. Every ratio names its
 * baseline, measured in the same run.
 * Prints a table (or JSON with --json) and writes the JSON to a file in the OS temp dir, never into the repo.
 * A part that fails is reported as failed; the others still run, and the process then exits non-zero. This file is the
 * command line; the parts are the table in parts.ts, and the tables are printed by render.ts.
 *
 *   node dist/bench/index.js [--only <parts>] [--sizes 10,50,200,500 | --resources N] [--rounds N]
 *                            [--latency-ms 100] [--latency-resources 200] [--receiver-events 5000] [--json]
 *   node dist/bench/index.js --shape scale [--scale-sizes 200,1000]   the scale shapes: listing, takeover, many resources and accounts
 */
import { writeFileSync } from "node:fs";
import { arch, cpus, loadavg, platform, release, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import type { BenchOptions, Outcome } from "./benchPart";
import { type BenchReport, DEFAULT_PARTS, type Part, PART_ENTRIES, type PartResults, PARTS, SCALE_PARTS } from "./parts";
import { DEFAULT_SIZES } from "./provider";
import { render } from "./render";
import { DEFAULT_SCALE_SIZES, isScaleOperation, isScaleProgram, SCALE_OPERATIONS, SCALE_PROGRAMS } from "./scale";

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
};

const nonNegativeInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected an integer of 0 or more");
  return n;
};

const sizeList = (value: string): number[] => {
  const sizes = value.split(",").map((s) => Number(s.trim()));
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new InvalidArgumentError("expected a comma-separated list of positive integers, e.g. 10,50,200");
  return sizes;
};

const partList = (value: string): Part[] => {
  const parts = value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = parts.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0 || parts.length === 0) throw new InvalidArgumentError(`expected a comma-separated list of ${PARTS.join(", ")}`);
  return parts as Part[];
};

const scaleOperationList = (value: string): string[] => {
  const operations = value.split(",").map((o) => o.trim());
  if (!operations.every(isScaleOperation)) throw new InvalidArgumentError(`expected a comma-separated list of ${SCALE_OPERATIONS.join(", ")}`);
  return operations;
};

const scaleProgramList = (value: string): string[] => {
  const programs = value.split(",").map((p) => p.trim());
  if (!programs.every(isScaleProgram)) throw new InvalidArgumentError(`expected a comma-separated list of ${SCALE_PROGRAMS.join(", ")}`);
  return programs;
};

/** Runs one part of the table (unless not asked for), reporting its failure rather than throwing it. */
async function run<K extends Part>(enabled: boolean, name: K, options: BenchOptions): Promise<Outcome<PartResults[K]>> {
  if (!enabled) return { status: "skipped" };
  process.stderr.write(`[bench] ${name}...\n`);
  const start = performance.now();
  try {
    const result = await PART_ENTRIES[name].part.run(options);
    return { status: "ok", seconds: Math.round((performance.now() - start) / 100) / 10, result };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`[bench] ${name} failed: ${message}\n`);
    return { status: "failed", seconds: Math.round((performance.now() - start) / 100) / 10, error: message };
  }
}

const load = (): number => Math.round((loadavg()[0] ?? 0) * 100) / 100;

function machine(): BenchReport["machine"] {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    loadAverageAtStart: load(),
  };
}

async function main(): Promise<void> {
  const program = new Command()
    .name("bench")
    .description("pulumi-svc benchmarks: emulator, sdk vs raw undici, provider vs a no-op dynamic resource, reliability under faults")
    .option("--only <parts>", `comma-separated subset of ${PARTS.join(",")} (default ${DEFAULT_PARTS.join(",")})`, partList)
    .addOption(new Option("--shape <shape>", `scale: the ${SCALE_PARTS.join(", ")} parts (issue 27's shapes)`).choices(["scale"]))
    .option("--scale-sizes <list>", "resources per program in the scale shapes (multiples of 20)", sizeList, DEFAULT_SCALE_SIZES)
    .option("--scale-accounts <n>", "accounts of the many-accounts programs (default 20; 100 with --scale-sizes 1000 is 100 x 10)", (v: string) => Number(v))
    .option("--scale-programs <list>", `a subset of ${SCALE_PROGRAMS.join(",")} (the floor always runs)`, scaleProgramList)
    .option(
      "--scale-operations <list>",
      `a subset of ${SCALE_OPERATIONS.join(",")} (up and destroy always run: the others need what up made)`,
      scaleOperationList,
    )
    .addOption(
      new Option("--sizes <list>", "resources per program at each point of the provider bench's scale curve")
        .env("SVC_BENCH_SIZES")
        .argParser(sizeList)
        .default(DEFAULT_SIZES, DEFAULT_SIZES.join(",")),
    )
    .option("--resources <n>", "one size only (same as --sizes n)", positiveInt)
    .option("--rounds <n>", "rounds per size of the provider bench (median reported)", positiveInt, 2)
    .option("--latency-ms <n>", "the provider's realistic-latency case: the emulator answers after this many ms (0: skip the case)", nonNegativeInt, 100)
    .option("--latency-resources <n>", "AppTokens in the realistic-latency case", positiveInt, 200)
    .option("--receiver-events <n>", "events per setup of the receivers part (in 5 rounds)", positiveInt, 5000)
    .option("--json", "print JSON instead of the table", false)
    .parse();
  const opts = program.opts<BenchOptions & { only?: Part[]; shape?: "scale"; json: boolean }>();
  const only = new Set(opts.only ?? (opts.shape === "scale" ? SCALE_PARTS : DEFAULT_PARTS));
  const startedAt = new Date().toISOString();
  const atStart = machine();

  const outcomes: Partial<Record<Part, Outcome<unknown>>> = {};
  for (const name of PARTS) outcomes[name] = await run(only.has(name), name, opts);
  // Every part has its entry now, each the outcome of its own runner (run's type): the report's per-part types.
  const report = { startedAt, machine: atStart, ...outcomes } as BenchReport;

  report.loadAverageAtEnd = load();
  const json = JSON.stringify(report, null, 2);
  const file = join(tmpdir(), `pulumi-svc-bench-${report.startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${json}\n`);
  process.stdout.write(opts.json ? `${json}\n` : `\n${render(report)}\n`);
  process.stderr.write(`[bench] JSON written to ${file}\n`);
  if (PARTS.some((p) => report[p].status === "failed")) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
