/**
 * Reliability on a faulty platform: single-run success of `up` and `destroy` of N AppTokens (default 50) through the
 * real engine while the emulator injects faults at 10%, 20% and 40% of requests, next to the same with faults off.
 * The faults are an even mix of every kind: 503, 429 (Retry-After 1 s), a dropped connection before the platform acts,
 * and, after it acted, a dropped answer, a 502 instead of the answer, and an answer slower than the provider's attempt
 * timeout. Per run: succeeded or not, wall time, faults injected, retries and create recoveries the provider made
 * (from its events file, SVC_PROVIDER_EVENTS_FILE), and orphans: tokens on the platform that the state does not record
 * (after destroy: any token left). Seeded: the same request order gives the same faults.
 * Run alone: `npm run build && node dist/bench/reliability.js [resources]`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { startEmulator, type FaultConfig, type RunningEmulator } from "../emulator";
import { SvcClient } from "../sdk";
import { benchStack } from "./engine";
import type { BenchPart } from "./benchPart";
import { fmt, table } from "./report";

export const FAULT_LEVELS = [0, 0.1, 0.2, 0.4] as const;
/** The provider's attempt timeout in this bench, and how late a slow answer comes (past it). */
const ATTEMPT_TIMEOUT_MS = 1_000;
const SLOW_MS = 1_500;

export interface ReliabilityRun {
  /** Share of requests faulted (0 = faults off). */
  faultRate: number;
  operation: "up" | "destroy";
  succeeded: boolean;
  error?: string;
  seconds: number;
  faultsInjected: number;
  retries: number;
  recoveries: number;
  /** Of the recoveries: the object the lost create made was found and adopted. */
  adopted: number;
  /** Of the recoveries: nothing was found (the create had not happened), so it was made again. */
  createdAgain: number;
  /** Tokens on the platform the state does not record (after destroy: every token left). */
  orphans: number;
}

export interface ReliabilityResult {
  resources: number;
  runs: ReliabilityRun[];
}

/** An even mix of every fault kind adding up to `rate`. */
export function mixedFaults(rate: number, seed: number): FaultConfig {
  if (rate === 0) return {};
  const each = rate / 6;
  return {
    errorRate: each,
    throttleRate: each,
    dropRate: each,
    commitThenDropRate: each,
    commitThenErrorRate: each,
    slowRate: each,
    slowMs: SLOW_MS,
    retryAfterSeconds: 1,
    seed,
  };
}

export async function benchReliability(options: { resources?: number; log?: (line: string) => void } = {}): Promise<ReliabilityResult> {
  const resources = options.resources ?? 50;
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench reliability] ${line}\n`));
  const emulator = await startEmulator({ port: 0, quiet: true });
  const dir = mkdtempSync(join(tmpdir(), "pulumi-svc-reliability-"));
  const eventsFile = join(dir, "provider-events.jsonl");
  const bench = await benchStack("appTokens");
  const admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
  const runs: ReliabilityRun[] = [];
  try {
    // The provider process inherits the workspace's environment: it appends its retries and recoveries there.
    (bench.stack.workspace as LocalWorkspace).envVars.SVC_PROVIDER_EVENTS_FILE = eventsFile;
    await bench.stack.setAllConfig({
      count: { value: String(resources) },
      "svc:baseUrl": { value: emulator.baseUrl },
      "svc:partnerId": { value: String(emulator.partnerId) },
      "svc:adminSecret": { value: emulator.adminSecret, secret: true },
      "svc:requestTimeoutMs": { value: String(ATTEMPT_TIMEOUT_MS) },
    });
    for (const [index, rate] of FAULT_LEVELS.entries()) {
      for (const operation of ["up", "destroy"] as const) {
        const run = await measure(emulator, admin, bench.stack, eventsFile, operation, rate, 100 + index);
        runs.push(run);
        log(
          `${Math.round(rate * 100)}% faults, ${operation}: ${run.succeeded ? "succeeded" : `FAILED (${run.error})`} in ${run.seconds} s, ${run.faultsInjected} faults, ${run.retries} retries, ${run.recoveries} recoveries (${run.adopted} adopted), ${run.orphans} orphans`,
        );
        // A failed run is finished with faults off, so the next level starts clean; its failure stays recorded.
        if (!run.succeeded) await (operation === "up" ? bench.stack.up() : bench.stack.destroy()).catch(() => undefined);
      }
    }
    return { resources, runs };
  } finally {
    emulator.ctx.faults.set({});
    await bench.stack.destroy().catch(() => undefined);
    await bench.cleanup();
    await admin.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(
  emulator: RunningEmulator,
  admin: SvcClient,
  stack: Awaited<ReturnType<typeof benchStack>>["stack"],
  eventsFile: string,
  operation: "up" | "destroy",
  rate: number,
  seed: number,
): Promise<ReliabilityRun> {
  writeFileSync(eventsFile, "");
  emulator.ctx.faults.set(mixedFaults(rate, seed));
  const start = performance.now();
  let error: string | undefined;
  try {
    const result = operation === "up" ? await stack.up() : await stack.destroy();
    if (result.summary.result !== "succeeded") error = `result ${result.summary.result}`;
  } catch (e) {
    error =
      (e instanceof Error ? e.message : String(e))
        .split("\n")
        .find((line) => /error/i.test(line))
        ?.trim()
        .slice(0, 200) ?? "failed";
  }
  const seconds = Math.round((performance.now() - start) / 100) / 10;
  const injected = emulator.ctx.faults.get().injected;
  emulator.ctx.faults.set({});
  const events = readFileSync(eventsFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; outcome?: string });
  const recorded = new Set(
    ((await stack.exportStack()).deployment.resources ?? [])
      .filter((r: { type: string; id?: string }) => r.type.endsWith("AppToken"))
      .map((r: { id?: string }) => r.id),
  );
  const onPlatform = (await admin.appTokens.iterate({ statusEqual: 2 }).toArray()).map((t) => t.id);
  return {
    faultRate: rate,
    operation,
    succeeded: error === undefined,
    ...(error ? { error } : {}),
    seconds,
    faultsInjected: Object.entries(injected).reduce((sum, [kind, n]) => (kind === "ok" ? sum : sum + n), 0),
    retries: events.filter((e) => e.type === "retry").length,
    recoveries: events.filter((e) => e.type === "recovery").length,
    adopted: events.filter((e) => e.type === "recovery" && e.outcome === "adopted").length,
    createdAgain: events.filter((e) => e.type === "recovery" && e.outcome !== "adopted").length,
    orphans: onPlatform.filter((id) => !recorded.has(id)).length,
  };
}

export const reliabilityPart: BenchPart<ReliabilityResult> = {
  title: "Reliability on a faulty platform: one run of up / destroy through the engine",
  run: (options) => benchReliability({ resources: options.resources ?? 50 }),
  render: (r) =>
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
};

if (require.main === module) {
  const [resources] = process.argv.slice(2).map(Number);
  benchReliability({ resources: resources || undefined }).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
