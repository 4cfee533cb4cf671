/**
 * What a part of `npm run bench` is: a runner and the renderer of its figures, with the title of its section. The
 * parts are registered in one table (parts.ts); the command line (index.ts) runs them and render.ts prints them.
 */

/** The command line's settings the parts read (index.ts parses them). */
export interface BenchOptions {
  /** The provider part's scale curve: resources per program at each point (`--sizes`, or `--resources` alone). */
  sizes: number[];
  /** `--resources`: one size of the curve, and the token count of the parts that take one. */
  resources?: number;
  /** Rounds per size of the provider part (median reported). */
  rounds: number;
  /** The provider part's realistic-latency case: added latency (0: skip the case) and its AppTokens. */
  latencyMs: number;
  latencyResources: number;
  /** Events per setup of the receivers part. */
  receiverEvents: number;
  /** The scale shapes: resources per program, the programs asked for (the floor always runs), the accounts. */
  scaleSizes: number[];
  scalePrograms?: readonly string[];
  scaleOperations?: readonly string[];
  scaleAccounts?: number;
}

/** A part: its section's title, how it runs, and how its result is printed (the JSON report holds the result). */
export interface BenchPart<Result> {
  title: string;
  run(options: BenchOptions): Promise<Result>;
  render(result: Result): string;
}

/** How a part ended in a run. */
export type Outcome<T> = { status: "ok"; seconds: number; result: T } | { status: "failed"; seconds: number; error: string } | { status: "skipped" };
