/** What one `npm run bench` run reports: each part's outcome and the machine it ran on (printed, and written as JSON). */
import type { EngineLogBenchResult } from "./engineLog";
import type { FunctionsBenchResult } from "./functions";
import type { ListingRow } from "./listing";
import type { PluginProcessResult } from "./pluginProcess";
import type { ProviderBenchResult } from "./provider";
import type { ReceiversBenchResult } from "./receivers";
import type { RecoverBenchResult } from "./recover";
import type { ReliabilityResult } from "./reliability";
import type { ScaleBenchResult } from "./scale";
import type { SdkBenchResult } from "./sdk";
import type { TakeoverBenchResult } from "./takeover";

export type Outcome<T> = { status: "ok"; seconds: number; result: T } | { status: "failed"; seconds: number; error: string } | { status: "skipped" };

export interface BenchReport {
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
  receivers: Outcome<ReceiversBenchResult>;
  recover: Outcome<RecoverBenchResult>;
}
