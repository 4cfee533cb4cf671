/** The provider part's entry in the bench's table (parts.ts): how the command line's settings reach it, and its tables. */
import type { BenchPart } from "./benchPart";
import { benchProvider } from "./provider";
import { type CpuFigures, OPERATIONS, type ProviderBenchResult } from "./providerFigures";
import { fmt, table } from "./report";

export const providerPart: BenchPart<ProviderBenchResult> = {
  title: "Provider through the Pulumi engine",
  run: (options) =>
    benchProvider({
      sizes: options.resources ? [options.resources] : options.sizes,
      rounds: options.rounds,
      latency: options.latencyMs > 0 ? { resources: options.latencyResources, latencyMs: options.latencyMs } : false,
    }),
  render: renderProvider,
};

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
