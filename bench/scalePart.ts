/** The scale shapes' entry in the bench's table (parts.ts): how the command line's settings reach them, and their table. */
import type { BenchPart } from "./benchPart";
import { fmt, table } from "./report";
import { benchScale, isScaleOperation, isScaleProgram, SCALE_OPERATIONS, SCALE_PROGRAMS, type ScaleBenchResult, type ScaleProgram } from "./scale";

export const scalePart: BenchPart<ScaleBenchResult> = {
  title: "Scale shapes through the engine: one run each; ratio and CPU ratio against the no-op floor of the same size",
  run: (options) =>
    benchScale({
      sizes: options.scaleSizes,
      programs: options.scalePrograms?.map(scaleProgram),
      operations: options.scaleOperations?.filter(isScaleOperation),
      accounts: options.scaleAccounts,
    }),
  render: renderScale,
};

function scaleProgram(name: string): ScaleProgram {
  if (!isScaleProgram(name)) throw new Error(`--scale-programs: ${name} is not one of ${SCALE_PROGRAMS.join(", ")}`);
  return name;
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
    `  engine ${r.engine}; floor = N no-op dynamic resources; floorNative = N AppTokens on a no-op native plugin (native ratios are against it); tokens = N AppTokens on one account; accounts = ${r.accounts} accounts x N/${r.accounts} mixed resources; accountTokens the same accounts with AppTokens, *Named with named accounts (one provider, one plugin process for all the accounts), floorNativeAccounts those on ${r.accounts} no-op native plugins (accounts CPU ratios are against it)`,
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
