/**
 * Bench part `receivers` (issue 34): webhook receivers at scale, through the emulator's deliverer (16 connections,
 * its retries and signatures) and a round-robin proxy, each callback appending the event id to a table of one
 * PostgreSQL. The same load three times, in one run: one receiver with the memory store (the baseline), one on the
 * shared PostgresReplayStore, three on it. For each: deliveries per second (events raised to the last delivered),
 * p50 and p99 of the receivers' answers, the store's share of the answer time, the database's connections (most
 * seen), and where the CPU went (the bench process: deliverer and proxy; the receivers; PostgreSQL; the machine).
 */
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { startPostgres, type PostgresServer } from "../scripts/postgresServer";
import { type Fleet, startFleet } from "./receivers/fleet";
import { percentile } from "./receivers/percentile";
import { fmt, median, table } from "./report";
import type { BenchPart } from "./benchPart";

export interface ReceiversRow {
  setup: string;
  receivers: number;
  store: "memory" | "postgres";
  deliveries: number;
  /** The median of the rounds' deliveries per second (events raised to the last delivered). */
  deliveriesPerSec: number;
  p50Ms: number;
  p99Ms: number;
  storeShare: number;
  dbConnections: number;
  /** CPU ms per delivery: the bench process (the deliverer and the proxy), the receivers, PostgreSQL. */
  cpuMsPerDelivery: { bench: number; receivers: number; postgres: number };
  /** Cores busy on the whole machine during this setup's rounds (other work included). */
  machineBusy: number;
}

export interface ReceiversBenchResult {
  events: number;
  rounds: number;
  cores: number;
  rows: ReceiversRow[];
  /** One receiver on the shared store against the memory store (target at least 0.5). */
  sharedVsMemory: number;
  /** Three receivers against one, both on the shared store (target at least 1). */
  threeVsOne: number;
}

const TICK_MS = 10; // Linux's USER_HZ of 100.

/** CPU ms of the PostgreSQL server: the postmaster, its exited backends (cutime) and the live ones. */
function postgresCpuMs(pid: number): number {
  const ticks = (p: number, withChildren: boolean): number => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
      // After "pid (comm) ": state is field 3, so utime..cstime (14..17) are at 11..14.
      const own = Number(fields[11]) + Number(fields[12]);
      return withChildren ? own + Number(fields[13]) + Number(fields[14]) : own;
    } catch {
      return 0;
    }
  };
  let total = ticks(pid, true);
  try {
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) total += ticks(Number(child), false);
  } catch {
    // No children file: the total stays the postmaster's.
  }
  return total * TICK_MS;
}

/** Busy and total jiffies of the whole machine (/proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const values = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

type Setup = Pick<ReceiversRow, "setup" | "receivers" | "store">;

interface Round {
  events: number;
  ms: number;
  answers: number[];
  storeMs: number;
  benchMs: number;
  receiversMs: number;
  postgresMs: number;
  busyTicks: number;
  totalTicks: number;
  dbConnections: number;
}

/** One round: `events` raised at once, timed until the deliverer is idle; CPU and connections sampled around it. */
async function round(pg: PostgresServer, fleet: Fleet, setup: Setup, events: number, applicationName: string): Promise<Round> {
  await Promise.all(fleet.receivers.map((r) => r.stats(true)));
  let dbConnections = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const n = Number(await pg.query(`SELECT count(*) FROM pg_stat_activity WHERE application_name = '${applicationName}'`));
      dbConnections = Math.max(dbConnections, n);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const cpuBefore = process.cpuUsage();
  const pgBefore = postgresCpuMs(pg.pid());
  const machineBefore = machineTicks();
  const { jobIds, ms } = await fleet.deliver(events);
  const cpuBench = process.cpuUsage(cpuBefore);
  const postgresMs = postgresCpuMs(pg.pid()) - pgBefore;
  const machineAfter = machineTicks();
  sampling = false;
  await sampler;
  const undelivered = fleet.undelivered(jobIds);
  if (undelivered > 0) throw new Error(`${setup.setup}: ${undelivered} of ${events} deliveries did not end delivered`);
  const stats = await Promise.all(fleet.receivers.map((r) => r.stats()));
  return {
    events,
    ms,
    answers: stats.flatMap((s) => s.answersMs),
    storeMs: stats.reduce((a, s) => a + s.storeMs, 0),
    benchMs: (cpuBench.user + cpuBench.system) / 1000,
    receiversMs: stats.reduce((a, s) => a + s.cpuMs, 0),
    postgresMs,
    busyTicks: machineAfter.busy - machineBefore.busy,
    totalTicks: machineAfter.total - machineBefore.total,
    dbConnections,
  };
}

function summarize(setup: Setup, rounds: Round[]): ReceiversRow {
  const sum = (pick: (r: Round) => number) => rounds.reduce((a, r) => a + pick(r), 0);
  const answers = rounds.flatMap((r) => r.answers).sort((a, b) => a - b);
  const deliveries = sum((r) => r.events);
  return {
    ...setup,
    deliveries,
    deliveriesPerSec: median(rounds.map((r) => r.events / (r.ms / 1000))),
    p50Ms: percentile(answers, 0.5),
    p99Ms: percentile(answers, 0.99),
    storeShare:
      sum((r) => r.storeMs) /
      Math.max(
        1,
        answers.reduce((a, b) => a + b, 0),
      ),
    dbConnections: Math.max(...rounds.map((r) => r.dbConnections)),
    cpuMsPerDelivery: {
      bench: sum((r) => r.benchMs) / deliveries,
      receivers: sum((r) => r.receiversMs) / deliveries,
      postgres: sum((r) => r.postgresMs) / deliveries,
    },
    machineBusy:
      (sum((r) => r.busyTicks) /
        Math.max(
          1,
          sum((r) => r.totalTicks),
        )) *
      cpus().length,
  };
}

/**
 * The three setups run side by side (each its own emulator, proxy, receivers and tables; the idle ones cost only
 * memory), their rounds interleaved, so that other work on the machine weighs on each setup alike.
 */
export async function benchReceivers(options: { events?: number; rounds?: number } = {}): Promise<ReceiversBenchResult> {
  const events = options.events ?? 5000;
  const rounds = options.rounds ?? 5;
  const perRound = Math.ceil(events / rounds);
  const pg = await startPostgres();
  const fleets: Fleet[] = [];
  try {
    const connectionString = `postgres://${pg.user}:${encodeURIComponent(pg.password)}@127.0.0.1:${pg.port}/${pg.database}`;
    const setups: Setup[] = [
      { setup: "1 receiver, memory store (baseline)", receivers: 1, store: "memory" },
      { setup: "1 receiver, PostgresReplayStore", receivers: 1, store: "postgres" },
      { setup: "3 receivers, PostgresReplayStore", receivers: 3, store: "postgres" },
    ];
    for (const [i, setup] of setups.entries()) {
      const fleet = await startFleet({
        receivers: setup.receivers,
        store: setup.store,
        connectionString,
        tablePrefix: `bench${i}`,
        leaseMs: 60_000,
        workMs: 0,
        storeConnections: 4,
        delivery: { initialDelayMs: 100, backoffMultiplier: 2, maxDelayMs: 1000, maxAttempts: 20, timeoutMs: 10_000 },
        query: (sql) => pg.query(sql),
      });
      fleets.push(fleet);
      await fleet.deliver(perRound); // warm-up, one round's worth: connections, the table, the JIT of every receiver
    }
    const measured: Round[][] = setups.map(() => []);
    for (let r = 0; r < rounds; r++)
      for (const [i, setup] of setups.entries()) measured[i]!.push(await round(pg, fleets[i]!, setup, perRound, `receivers bench${i}`));
    const rows = setups.map((setup, i) => summarize(setup, measured[i]!));
    const [memory, one, three] = rows as [ReceiversRow, ReceiversRow, ReceiversRow];
    return {
      events: perRound * rounds,
      rounds,
      cores: cpus().length,
      rows,
      sharedVsMemory: one.deliveriesPerSec / memory.deliveriesPerSec,
      threeVsOne: three.deliveriesPerSec / one.deliveriesPerSec,
    };
  } finally {
    for (const fleet of fleets) await fleet.close().catch(() => undefined);
    await pg.stop();
  }
}

export function renderReceivers(r: ReceiversBenchResult): string {
  return [
    `  ${fmt(r.events)} events per setup in ${r.rounds} interleaved rounds, through the emulator's deliverer (16 connections) and a round-robin proxy; each callback inserts into PostgreSQL`,
    table(
      ["setup", "deliveries/s", "p50 ms", "p99 ms", "store share", "db connections", "CPU ms/delivery: bench", "receivers", "postgres", "machine busy"],
      r.rows.map((row) => [
        row.setup,
        fmt(row.deliveriesPerSec),
        fmt(row.p50Ms, 1),
        fmt(row.p99Ms, 1),
        `${fmt(row.storeShare * 100)} %`,
        fmt(row.dbConnections),
        fmt(row.cpuMsPerDelivery.bench, 2),
        fmt(row.cpuMsPerDelivery.receivers, 2),
        fmt(row.cpuMsPerDelivery.postgres, 2),
        `${fmt(row.machineBusy, 2)} of ${r.cores}`,
      ]),
    ),
    `  ratio 1 receiver on PostgreSQL / memory store = ${fmt(r.sharedVsMemory, 2)} (target >= 0.5); 3 receivers / 1 on PostgreSQL = ${fmt(r.threeVsOne, 2)} (target >= 1)`,
    "  deliveries/s: the median round; bench = the emulator's deliverer and the proxy (one process); machine busy: cores busy, every process (other work included)",
  ].join("\n");
}

export const receiversPart: BenchPart<ReceiversBenchResult> = {
  title: "Webhook receivers at scale: the memory store, then PostgresReplayStore with 1 and 3 receivers",
  run: (options) => benchReceivers({ events: options.receiverEvents }),
  render: renderReceivers,
};
