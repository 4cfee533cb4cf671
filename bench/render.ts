/** The bench's table: one section per part of a run's report (bench/benchReport.ts), from its figures. */
import type { BenchReport, Outcome } from "./benchReport";
import { renderEngineLog } from "./engineLog";
import { renderFunctions } from "./functions";
import { type CpuFigures, OPERATIONS, type ProviderBenchResult } from "./provider";
import { renderPluginProcess } from "./pluginProcess";
import { renderReceivers } from "./receivers";
import { fmt, table } from "./report";
import { SCALE_OPERATIONS, SCALE_PROGRAMS, type ScaleBenchResult } from "./scale";

function section<T>(title: string, outcome: Outcome<T>, body: (result: T) => string): string {
  if (outcome.status === "skipped") return `${title}\n  skipped`;
  if (outcome.status === "failed") return `${title}\n  FAILED after ${outcome.seconds} s: ${outcome.error}`;
  return `${title} (${outcome.seconds} s)\n${body(outcome.result)}`;
}

export function render(report: BenchReport): string {
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
  out.push(
    section("pulumi-svc recover with nothing to recover (a stack of N resources; baseline: pulumi stack export alone)", report.recover, (r) =>
      table(
        ["resources", "recover ms", "stack export ms", "recover / export", "outcome"],
        [[fmt(r.resources), fmt(r.recoverMs), fmt(r.exportMs), fmt(r.ratio, 2), r.outcome]],
      ),
    ),
  );
  out.push(section("Webhook receivers at scale: the memory store, then PostgresReplayStore with 1 and 3 receivers", report.receivers, renderReceivers));
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
