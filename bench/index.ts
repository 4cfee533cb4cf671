/**
 * `npm run bench`: the emulator's throughput, the sdk against raw undici, the Pulumi provider against a no-op
 * dynamic resource, and the provider's single-run success on a faulty platform, measured in one run on this machine. Every ratio names its baseline, measured in the same run.
 * Prints a table (or JSON with --json) and writes the JSON to a file in the OS temp dir, never into the repo.
 * A part that fails is reported as failed; the others still run, and the process then exits non-zero.
 *
 *   node dist/bench/index.js [--only emulator,sdk,provider,reliability,engineLog,functions] [--sizes 10,50,200,500 | --resources N] [--rounds N]
 *                            [--latency-ms 100] [--latency-resources 200] [--json]
 *   node dist/bench/index.js --shape scale [--scale-sizes 200,1000]   the scale shapes: listing, takeover, many resources and accounts
 */
import { writeFileSync } from "node:fs";
import { arch, cpus, loadavg, platform, release, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { benchEmulator } from "./emulator";
import { benchEngineLog, type EngineLogBenchResult, renderEngineLog } from "./engineLog";
import { benchListing, DEFAULT_LISTING_SIZES, type ListingRow } from "./listing";
import { benchProvider, DEFAULT_SIZES, OPERATIONS, type CpuFigures, type ProviderBenchResult } from "./provider";
import { benchReliability, type ReliabilityResult } from "./reliability";
import { benchFunctions, type FunctionsBenchResult, renderFunctions } from "./functions";
import { fmt, table } from "./report";
import { benchPluginProcess, type PluginProcessResult, renderPluginProcess } from "./pluginProcess";
import { benchScale, DEFAULT_SCALE_SIZES, SCALE_OPERATIONS, SCALE_PROGRAMS, type ScaleBenchResult, type ScaleProgram } from "./scale";
import { benchTakeover, type TakeoverBenchResult } from "./takeover";
import { benchSdk, type SdkBenchResult } from "./sdk";

const PARTS = ["emulator", "sdk", "provider", "reliability", "engineLog", "functions", "listing", "takeover", "pluginProcess", "scale"] as const;
type Part = (typeof PARTS)[number];
/** What `npm run bench` runs without --only or --shape; the scale shapes take long and run when asked for. */
const DEFAULT_PARTS: Part[] = ["emulator", "sdk", "provider", "reliability", "engineLog", "functions"];
/** `--shape scale`: the parts of issue 27's shapes. */
const SCALE_PARTS: Part[] = ["listing", "takeover", "pluginProcess", "scale"];

type Outcome<T> = { status: "ok"; seconds: number; result: T } | { status: "failed"; seconds: number; error: string } | { status: "skipped" };

interface BenchReport {
  startedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; os: string; node: string; loadAverageAtStart: number };
  /** 1-minute load average when the run ended: above the CPU count, other work shared the machine. */
  loadAverageAtEnd?: number;
  emulator: Outcome<Record<string, number | string>>;
  sdk: Outcome<SdkBenchResult>;
  provider: Outcome<ProviderBenchResult>;
  reliability: Outcome<ReliabilityResult>;
  engineLog: Outcome<EngineLogBenchResult>;
  functions: Outcome<FunctionsBenchResult>;
  listing: Outcome<ListingRow[]>;
  takeover: Outcome<TakeoverBenchResult>;
  pluginProcess: Outcome<PluginProcessResult>;
  scale: Outcome<ScaleBenchResult>;
}

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

async function run<T>(enabled: boolean, name: Part, fn: () => Promise<T>): Promise<Outcome<T>> {
  if (!enabled) return { status: "skipped" };
  process.stderr.write(`[bench] ${name}...\n`);
  const start = performance.now();
  try {
    const result = await fn();
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

function section<T>(title: string, outcome: Outcome<T>, body: (result: T) => string): string {
  if (outcome.status === "skipped") return `${title}\n  skipped`;
  if (outcome.status === "failed") return `${title}\n  FAILED after ${outcome.seconds} s: ${outcome.error}`;
  return `${title} (${outcome.seconds} s)\n${body(outcome.result)}`;
}

function render(report: BenchReport): string {
  const m = report.machine;
  const out = [
    `pulumi-svc bench, ${report.startedAt}: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}; load average ${m.loadAverageAtStart} at start, ${report.loadAverageAtEnd} at end`,
  ];
  out.push(
    section("Emulator: appToken.get over keep-alive connections, in-memory state", report.emulator, (r) =>
      table(
        ["connections", "requests/s", "requests"],
        [
          ["1", fmt(r["emulator.appToken.get.rps.c1"]), fmt(r["emulator.appToken.get.requests.c1"])],
          ["32", fmt(r["emulator.appToken.get.rps.c32"]), fmt(r["emulator.appToken.get.requests.c32"])],
        ],
      ),
    ),
  );
  out.push(
    section("SDK vs raw undici: appToken.get on the same emulator (in its own process)", report.sdk, (r) =>
      [
        table(
          ["client", "ops/s", "client CPU µs/call"],
          [
            ["raw undici (baseline)", fmt(r.rawOpsPerSec), fmt(r.rawCpuMicrosPerCall)],
            ["SvcClient", fmt(r.sdkOpsPerSec), fmt(r.sdkCpuMicrosPerCall)],
          ],
        ),
        `  ratio SvcClient / raw undici = ${fmt(r.ratio, 3)} (concurrency ${r.concurrency}; 1 = the sdk costs nothing)`,
        `  sdk overhead: ${fmt(r.sdkCpuMicrosPerCall - r.rawCpuMicrosPerCall)} µs of client CPU per call (form encoding, session, retry wrapper, zod validation)`,
      ].join("\n"),
    ),
  );
  out.push(section("Provider through the Pulumi engine", report.provider, renderProvider));
  out.push(
    section("Reliability on a faulty platform: one run of up / destroy through the engine", report.reliability, (r) =>
      [
        `  ${r.resources} AppTokens; faults: an even mix of 503, 429, drop before acting, commitThenDrop, commitThenError, slow`,
        table(
          ["faults", "operation", "succeeded", "s", "faults injected", "retries", "recoveries", "adopted", "created again", "orphans"],
          r.runs.map((run) => [
            run.faultRate === 0 ? "off" : `${Math.round(run.faultRate * 100)}%`,
            run.operation,
            run.succeeded ? "yes" : `NO: ${run.error ?? ""}`,
            fmt(run.seconds, 1),
            fmt(run.faultsInjected),
            fmt(run.retries),
            fmt(run.recoveries),
            fmt(run.adopted),
            fmt(run.createdAgain),
            fmt(run.orphans),
          ]),
        ),
        "  retries: by the transport (429, lost answers of idempotent calls, session starts); recoveries: creates whose answer was lost,",
        "  then found and adopted, or found absent and created again; orphans = tokens on the platform the state does not record.",
      ].join("\n"),
    ),
  );
  out.push(section("Diagnostics through the engine: the CPU they add to an up", report.engineLog, renderEngineLog));
  out.push(section("Provider functions: the cost of an invoke on a warm plugin", report.functions, renderFunctions));
  out.push(
    section("Emulator listing at size: one account, pages of 500 (the platform's cap), in process", report.listing, (rows) =>
      table(
        ["objects", "all tokens ms", "pages", "ms/page", "filtered ms", "middle page ms", "templates", "all templates ms"],
        rows.map((r) => [
          fmt(r.objects),
          fmt(r.allTokensMs, 1),
          fmt(r.pages),
          fmt(r.msPerPage, 2),
          fmt(r.filteredMs, 1),
          fmt(r.middlePageMs, 1),
          fmt(r.templates),
          fmt(r.allTemplatesMs, 1),
        ]),
      ),
    ),
  );
  out.push(
    section("Takeover at size: pulumi-svc takeover of one account, then pulumi import on the plugin", report.takeover, (r) =>
      table(
        ["tokens", "templates", "listing ms", "command ms", "command MiB", "in import file", "imported", "import ms", "plugin MiB", "plugin CPU s"],
        [
          [
            fmt(r.tokens),
            fmt(r.templates),
            fmt(r.listingMs),
            fmt(r.commandMs),
            fmt(r.commandPeakMiB, 1),
            fmt(r.importFileResources),
            fmt(r.imported),
            fmt(r.importMs),
            fmt(r.importPluginPeakMiB, 1),
            fmt(r.importPluginCpuSeconds, 2),
          ],
        ],
      ),
    ),
  );
  out.push(section("One plugin process: start, idle and serving, launcher and single executable", report.pluginProcess, renderPluginProcess));
  out.push(section("Scale shapes through the engine: one run each; ratio and CPU ratio against the no-op floor of the same size", report.scale, renderScale));
  return out.join("\n\n");
}

function renderScale(r: ScaleBenchResult): string {
  const rows = r.sizes.flatMap((size) =>
    SCALE_OPERATIONS.flatMap((op) =>
      SCALE_PROGRAMS.filter((p) => size.samples[p][op]).map((p) => {
        const s = size.samples[p][op]!;
        return [
          fmt(size.resources),
          op,
          p,
          fmt(s.ms),
          fmt(s.msPerResource, 1),
          fmt(s.ratio, 2),
          fmt(s.cpuRatio, 2),
          fmt(s.nativeRatio, 2),
          fmt(s.nativeCpuRatio, 2),
          fmt(s.nativeAccountsCpuRatio, 2),
          `${fmt(s.cpu.program, 1)} / ${fmt(s.cpu.provider, 1)} / ${fmt(s.cpu.rest, 1)}`,
          fmt(s.providerProcesses),
          fmt(s.providerPeakMiB, 1),
          fmt(s.allPeakMiB, 0),
        ];
      }),
    ),
  );
  return [
    `  engine ${r.engine}; floor = N no-op dynamic resources; floorNative = N AppTokens on a no-op native plugin (native ratios are against it); tokens = N AppTokens on one account; accounts = ${r.accounts} accounts x N/${r.accounts} mixed resources; accountTokens the same accounts with AppTokens, floorNativeAccounts those on ${r.accounts} no-op native plugins (accounts CPU ratios are against it)`,
    table(
      [
        "N",
        "operation",
        "program",
        "ms",
        "ms/res",
        "ratio",
        "CPU ratio",
        "native ratio",
        "native CPU ratio",
        "accounts CPU ratio",
        "CPU s program / provider / rest",
        "provider procs",
        "provider MiB",
        "all peaks MiB",
      ],
      rows,
    ),
    ...r.failures.map((f) => `  FAILED ${f}`),
  ].join("\n");
}

function renderProvider(r: ProviderBenchResult): string {
  const lines = [
    `  AppTokens on the dynamic provider and on the native plugin vs no-op dynamic resources (the engine's floor), same run, engine ${r.engine}, ${r.cpus} CPUs; medians of each size's rounds`,
    "  Scale curve: ratio = AppTokens ms / no-op ms (wall); ms/res = AppTokens ms / N; +ms/res = (AppTokens ms - no-op ms) / N;",
    "  CPU ratio = CPU of all the AppTokens operation's processes / the same of the no-op operation (steadier than wall time on a shared machine)",
    table(
      [
        "N",
        "operation",
        "rounds",
        "no-op ms",
        "AppTokens ms",
        "ratio",
        "ms/res",
        "+ms/res",
        "CPU ratio",
        "session.start",
        "API calls",
        "plugin ms",
        "plugin ratio",
        "plugin CPU ratio",
        "plugin/dynamic",
      ],
      r.curve.flatMap((p) =>
        OPERATIONS.map((op) => {
          const f = p.operations[op];
          return [
            String(p.resources),
            op,
            fmt(p.rounds),
            fmt(f.noopMs),
            fmt(f.appTokensMs),
            fmt(f.ratio, 2),
            fmt(f.appTokensMsPerResource, 1),
            fmt(f.extraMsPerResource, 1),
            fmt(f.cpuRatio, 2),
            fmt(f.sessionStart),
            fmt(f.apiCalls),
            fmt(f.pluginMs),
            fmt(f.pluginRatio, 2),
            fmt(f.pluginCpuRatio, 2),
            fmt(f.pluginToDynamic, 2),
          ];
        }),
      ),
    ),
    "  Per size: checkpoint bytes per resource (the file the engine rewrites on every step, after up minus after destroy, / N), peak memory of the dynamic provider process",
    table(
      ["N", "state B/res no-op", "state B/res AppTokens", "state B/res plugin", "provider MiB no-op", "provider MiB AppTokens", "plugin MiB"],
      r.curve.map((p) => [
        String(p.resources),
        fmt(p.stateBytesPerResource.noop),
        fmt(p.stateBytesPerResource.appTokens),
        fmt(p.stateBytesPerResource.plugin),
        fmt(p.providerPeakMiB.noop, 1),
        fmt(p.providerPeakMiB.appTokens, 1),
        fmt(p.providerPeakMiB.plugin, 1),
      ]),
    ),
    "  Where the CPU goes (s of CPU, no-op / AppTokens / plugin): program = language host, provider = the provider process, rest = engine CLI and the others",
    table(
      ["N", "operation", "program", "provider", "rest"],
      r.curve.flatMap((p) =>
        OPERATIONS.map((op) => {
          const c = p.operations[op].cpu;
          const pair = (k: keyof CpuFigures) => `${fmt(c.noop[k], 2)} / ${fmt(c.appTokens[k], 2)} / ${fmt(c.plugin[k], 2)}`;
          return [String(p.resources), op, pair("program"), pair("provider"), pair("rest")];
        }),
      ),
    ),
  ];
  const l = r.latency;
  if (l) {
    lines.push(
      `  Latency: up of ${l.resources} AppTokens, every call answered after ${l.latencyMs} ms; engine parallelism ${l.parallelism}; svc:maxConcurrency at its default (${l.maxConcurrency ?? "no such limit in this release"})`,
      table(
        ["floor up ms", "latency bound ms", "floor + bound ms", "AppTokens ms", "ratio to bound", "ratio to floor", "API calls"],
        [
          [
            fmt(l.floorMs),
            fmt(l.latencyBoundMs),
            fmt(l.boundMs),
            fmt(l.appTokensMs),
            fmt(l.ratioToBound, 2),
            fmt(l.ratioToFloor, 2),
            fmt(Object.values(l.calls).reduce((a, b) => a + b, 0)),
          ],
        ],
      ),
      `  latency bound = ${l.latencyMs} ms x (ceil(${l.resources} / ${l.inFlight} in flight) + 1 session.start); ratio to bound <= 1: the calls overlap as much as the parallelism allows`,
    );
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const program = new Command()
    .name("bench")
    .description("pulumi-svc benchmarks: emulator, sdk vs raw undici, provider vs a no-op dynamic resource, reliability under faults")
    .option("--only <parts>", `comma-separated subset of ${PARTS.join(",")} (default ${DEFAULT_PARTS.join(",")})`, partList)
    .addOption(new Option("--shape <shape>", "scale: the listing, takeover and scale parts (issue 27's shapes)").choices(["scale"]))
    .option("--scale-sizes <list>", "resources per program in the scale shapes (multiples of 20)", sizeList, DEFAULT_SCALE_SIZES)
    .option("--scale-programs <list>", `a subset of ${SCALE_PROGRAMS.join(",")} (the floor always runs)`, (v: string) => v.split(",") as ScaleProgram[])
    .option("--scale-accounts <n>", "accounts of the many-accounts programs (default 20; 100 with --scale-sizes 1000 is 100 x 10)", (v: string) => Number(v))
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
    .option("--json", "print JSON instead of the table", false)
    .parse();
  const opts = program.opts<{
    only?: Part[];
    shape?: "scale";
    scaleSizes: number[];
    scalePrograms?: ScaleProgram[];
    scaleAccounts?: number;
    sizes: number[];
    resources?: number;
    rounds: number;
    latencyMs: number;
    latencyResources: number;
    json: boolean;
  }>();
  const only = new Set(opts.only ?? (opts.shape === "scale" ? SCALE_PARTS : DEFAULT_PARTS));

  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    machine: machine(),
    emulator: await run(only.has("emulator"), "emulator", () => benchEmulator()),
    sdk: await run(only.has("sdk"), "sdk", () => benchSdk()),
    provider: await run(only.has("provider"), "provider", () =>
      benchProvider({
        sizes: opts.resources ? [opts.resources] : opts.sizes,
        rounds: opts.rounds,
        latency: opts.latencyMs > 0 ? { resources: opts.latencyResources, latencyMs: opts.latencyMs } : false,
      }),
    ),
    reliability: await run(only.has("reliability"), "reliability", () => benchReliability({ resources: opts.resources ?? 50 })),
    engineLog: await run(only.has("engineLog"), "engineLog", () => benchEngineLog({ resources: opts.resources ?? 200 })),
    functions: await run(only.has("functions"), "functions", () => benchFunctions()),
    listing: await run(only.has("listing"), "listing", () => benchListing(DEFAULT_LISTING_SIZES)),
    takeover: await run(only.has("takeover"), "takeover", () => benchTakeover()),
    pluginProcess: await run(only.has("pluginProcess"), "pluginProcess", () => benchPluginProcess()),
    scale: await run(only.has("scale"), "scale", () => benchScale({ sizes: opts.scaleSizes, programs: opts.scalePrograms, accounts: opts.scaleAccounts })),
  };

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
