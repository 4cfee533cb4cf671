/**
 * The parts of `npm run bench`, in the order they run and print: one line each, the part (its runner and its
 * renderer, in its own file under bench/) and when it runs without `--only`: by default, or with `--shape scale`.
 * A new part is one line here (docs/bench.md).
 */
import type { BenchPart, Outcome } from "./benchPart";
import { emulatorPart } from "./emulator";
import { engineLogPart } from "./engineLog";
import { functionsPart } from "./functions";
import { listingPart } from "./listing";
import { namedAccountsPart } from "./namedAccounts";
import { pluginProcessPart } from "./pluginProcess";
import { providerPart } from "./providerPart";
import { receiversPart } from "./receivers";
import { recoverPart } from "./recover";
import { reliabilityPart } from "./reliability";
import { scalePart } from "./scalePart";
import { sdkPart } from "./sdk";
import { takeoverPart } from "./takeover";

const PART_TABLE = {
  emulator: { part: emulatorPart, runs: "default" },
  sdk: { part: sdkPart, runs: "default" },
  provider: { part: providerPart, runs: "default" },
  reliability: { part: reliabilityPart, runs: "default" },
  engineLog: { part: engineLogPart, runs: "default" },
  functions: { part: functionsPart, runs: "default" },
  listing: { part: listingPart, runs: "scale" },
  takeover: { part: takeoverPart, runs: "scale" },
  pluginProcess: { part: pluginProcessPart, runs: "scale" },
  scale: { part: scalePart, runs: "scale" },
  namedAccounts: { part: namedAccountsPart, runs: "scale" },
  receivers: { part: receiversPart, runs: "default" },
  recover: { part: recoverPart, runs: "default" },
} as const;

export type Part = keyof typeof PART_TABLE;
/** Each part's result, as its runner gives it. */
export type PartResults = { [K in Part]: (typeof PART_TABLE)[K]["part"] extends BenchPart<infer Result> ? Result : never };
/** The table with each entry typed by its own result (so a part's runner and renderer are used together, typed). */
export const PART_ENTRIES: { readonly [K in Part]: { part: BenchPart<PartResults[K]>; runs: "default" | "scale" } } = PART_TABLE;

export const PARTS = Object.keys(PART_TABLE) as Part[];
/** What `npm run bench` runs without --only or --shape; the scale shapes take long and run when asked for. */
export const DEFAULT_PARTS: Part[] = PARTS.filter((name) => PART_TABLE[name].runs === "default");
/** `--shape scale`: the parts of issue 27's shapes. */
export const SCALE_PARTS: Part[] = PARTS.filter((name) => PART_TABLE[name].runs === "scale");

/** Each part's outcome in a run. */
export type PartOutcomes = { [K in Part]: Outcome<PartResults[K]> };

/** What one `npm run bench` run reports: each part's outcome and the machine it ran on (printed, and written as JSON). */
export type BenchReport = {
  startedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; os: string; node: string; loadAverageAtStart: number };
  /** 1-minute load average when the run ended: above the CPU count, other work shared the machine. */
  loadAverageAtEnd?: number;
} & PartOutcomes;
