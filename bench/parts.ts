/** The parts of `npm run bench`, by name: a new part is one name here and its file under bench/ (docs/bench.md). */
export const PARTS = [
  "emulator",
  "sdk",
  "provider",
  "reliability",
  "engineLog",
  "functions",
  "listing",
  "takeover",
  "pluginProcess",
  "scale",
  "receivers",
  "recover",
] as const;
export type Part = (typeof PARTS)[number];
/** What `npm run bench` runs without --only or --shape; the scale shapes take long and run when asked for. */
export const DEFAULT_PARTS: Part[] = ["emulator", "sdk", "provider", "reliability", "engineLog", "functions", "receivers", "recover"];
/** `--shape scale`: the parts of issue 27's shapes. */
export const SCALE_PARTS: Part[] = ["listing", "takeover", "pluginProcess", "scale"];
/** The provider part's scale curve: resources per program at each point (`--sizes`, SVC_BENCH_SIZES). */
export const DEFAULT_SIZES = [10, 50, 200, 500];
