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
import { fmt, table } from "./report";

export interface ReceiversRow {
  setup: string;
  receivers: number;
  store: "memory" | "postgres";
  deliveries: number;
  deliveriesPerSec: number;
  p50Ms: number;
  p99Ms: number;
  storeShare: number;
  dbConnections: number;
  /** CPU time as a share of one core over the run. */
  cpu: { bench: number; receivers: number; postgres: number; machineBusy: number };
}

export interface ReceiversBenchResult {
  events: number;
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

async function measure(
  pg: PostgresServer,
  connectionString: string,
  setup: Omit<ReceiversRow, "deliveriesPerSec" | "p50Ms" | "p99Ms" | "storeShare" | "dbConnections" | "cpu" | "deliveries">,
  events: number,
  run: number,
): Promise<ReceiversRow> {
  const fleet: Fleet = await startFleet({
    receivers: setup.receivers,
    store: setup.store,
    connectionString,
    tablePrefix: `bench${run}`,
    leaseMs: 60_000,
    workMs: 0,
    storeConnections: 4,
    delivery: { initialDelayMs: 100, backoffMultiplier: 2, maxDelayMs: 1000, maxAttempts: 20, timeoutMs: 10_000 },
    query: (sql) => pg.query(sql),
  });
  try {
    await fleet.deliver(Math.min(300, events)); // warm-up: connections, the table, JIT
    await Promise.all(fleet.receivers.map((r) => r.stats(true)));
    let dbConnections = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const n = Number(await pg.query("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"));
        dbConnections = Math.max(dbConnections, n);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const cpuBefore = process.cpuUsage();
    const pgBefore = postgresCpuMs(pg.pid());
    const machineBefore = machineTicks();
    const { jobIds, ms } = await fleet.deliver(events);
    const cpuBench = process.cpuUsage(cpuBefore);
    const pgMs = postgresCpuMs(pg.pid()) - pgBefore;
    const machineAfter = machineTicks();
    sampling = false;
    await sampler;
    const undelivered = fleet.undelivered(jobIds);
    if (undelivered > 0) throw new Error(`${setup.setup}: ${undelivered} of ${events} deliveries did not end delivered`);
    const stats = await Promise.all(fleet.receivers.map((r) => r.stats()));
    const answers = stats.flatMap((s) => s.answersMs).sort((a, b) => a - b);
    const answerMs = answers.reduce((a, b) => a + b, 0);
    return {
      ...setup,
      deliveries: events,
      deliveriesPerSec: events / (ms / 1000),
      p50Ms: percentile(answers, 0.5),
      p99Ms: percentile(answers, 0.99),
      storeShare: answerMs > 0 ? stats.reduce((a, s) => a + s.storeMs, 0) / answerMs : 0,
      dbConnections,
      cpu: {
        bench: (cpuBench.user + cpuBench.system) / 1000 / ms,
        receivers: stats.reduce((a, s) => a + s.cpuMs, 0) / ms,
        postgres: pgMs / ms,
        machineBusy: ((machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total)) * cpus().length,
      },
    };
  } finally {
    await fleet.close();
  }
}

export async function benchReceivers(options: { events?: number } = {}): Promise<ReceiversBenchResult> {
  const events = options.events ?? 3000;
  const pg = await startPostgres();
  try {
    const connectionString = `postgres://${pg.user}:${encodeURIComponent(pg.password)}@127.0.0.1:${pg.port}/${pg.database}`;
    const setups = [
      { setup: "1 receiver, memory store (baseline)", receivers: 1, store: "memory" as const },
      { setup: "1 receiver, PostgresReplayStore", receivers: 1, store: "postgres" as const },
      { setup: "3 receivers, PostgresReplayStore", receivers: 3, store: "postgres" as const },
    ];
    const rows: ReceiversRow[] = [];
    for (const [i, setup] of setups.entries()) rows.push(await measure(pg, connectionString, setup, events, i));
    const [memory, one, three] = rows as [ReceiversRow, ReceiversRow, ReceiversRow];
    return {
      events,
      cores: cpus().length,
      rows,
      sharedVsMemory: one.deliveriesPerSec / memory.deliveriesPerSec,
      threeVsOne: three.deliveriesPerSec / one.deliveriesPerSec,
    };
  } finally {
    await pg.stop();
  }
}

export function renderReceivers(r: ReceiversBenchResult): string {
  const cores = (share: number) => fmt(share, 2);
  return [
    `  ${fmt(r.events)} events per setup through the emulator's deliverer (16 connections) and a round-robin proxy; each callback inserts into PostgreSQL`,
    table(
      ["setup", "deliveries/s", "p50 ms", "p99 ms", "store share", "db connections", "CPU: bench", "receivers", "postgres", "machine"],
      r.rows.map((row) => [
        row.setup,
        fmt(row.deliveriesPerSec),
        fmt(row.p50Ms, 1),
        fmt(row.p99Ms, 1),
        `${fmt(row.storeShare * 100)} %`,
        fmt(row.dbConnections),
        cores(row.cpu.bench),
        cores(row.cpu.receivers),
        cores(row.cpu.postgres),
        `${cores(row.cpu.machineBusy)} of ${r.cores}`,
      ]),
    ),
    `  ratio 1 receiver on PostgreSQL / memory store = ${fmt(r.sharedVsMemory, 2)} (target >= 0.5); 3 receivers / 1 on PostgreSQL = ${fmt(r.threeVsOne, 2)} (target >= 1)`,
    "  CPU in cores busy over the run: bench = the emulator's deliverer and the proxy (one process); machine = every process, other work included",
  ].join("\n");
}
