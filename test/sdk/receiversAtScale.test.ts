/**
 * Issue 34: receivers beyond one machine, through the real delivery path. The emulator's deliverer (its retries and
 * signatures) sends events to three receiver processes behind one round-robin proxy; they share one PostgreSQL for
 * PostgresReplayStore and for the table each callback appends the event's job id to. Then the same with one
 * receiver SIGKILLed while it has deliveries in flight, and restarted. Every event is handled at least once; an
 * event is handled twice only when the killed receiver had done its work and died before complete, at most as
 * many as it had in flight; no claim is left in progress. Loopback only, a few seconds; reads dist/ (the receiver
 * process is bench/receivers/receiverProcess.ts, built), so it runs in `npm test`, not in test:unit.
 */
import { afterAll, describe, expect, it } from "vitest";
import { startFleet, type Fleet } from "../../bench/receivers/fleet";
import { startPostgres, type PostgresServer } from "../../scripts/postgresServer";
import { startServerBeforeAll } from "../support/serverBeforeAll";

const EVENTS = 300;
const LEASE_MS = 2000;

let pg: PostgresServer;
let fleet: Fleet;
let db: { query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>; end(): Promise<void> };

// A server or fleet that cannot start fails each test with the reason (a failed beforeAll would skip them).
startServerBeforeAll(async () => {
  pg = await startPostgres();
  const connectionString = `postgres://${pg.user}:${encodeURIComponent(pg.password)}@127.0.0.1:${pg.port}/${pg.database}`;
  const { Pool } = require("pg") as { Pool: new (options: Record<string, unknown>) => typeof db };
  db = new Pool({ connectionString, max: 2 });
  fleet = await startFleet({
    receivers: 3,
    store: "postgres",
    connectionString,
    tablePrefix: "load",
    leaseMs: LEASE_MS,
    // A callback that takes a moment after its insert, so that a kill finds work done and not yet completed.
    workMs: 5,
    storeConnections: 4,
    // Retries soon and often enough to outlast a lapsed lease.
    delivery: { initialDelayMs: 100, backoffMultiplier: 2, maxDelayMs: 500, maxAttempts: 40, timeoutMs: 5000 },
    query: (sql) => pg.query(sql),
  });
});

afterAll(async () => {
  await fleet?.close();
  await db?.end();
  await pg?.stop();
});

/** How often each job id was handled, and by which receivers in order. */
async function handled(jobIds: number[]): Promise<Map<number, string[]>> {
  const { rows } = await db.query(`SELECT event_id, receiver FROM ${fleet.handledTable} WHERE event_id = ANY($1) ORDER BY at, receiver`, [jobIds]);
  const byJob = new Map<number, string[]>();
  for (const row of rows) byJob.set(Number(row.event_id), [...(byJob.get(Number(row.event_id)) ?? []), String(row.receiver)]);
  return byJob;
}

async function claimsOf(jobIds: number[]): Promise<Record<string, number>> {
  const { rows } = await db.query(`SELECT state, count(*)::int AS n FROM ${fleet.replayTable} WHERE key = ANY($1) GROUP BY state`, [jobIds.map(String)]);
  return Object.fromEntries(rows.map((r) => [String(r.state), Number(r.n)]));
}

describe("three receivers on one PostgreSQL behind one URL", () => {
  it("every event handled exactly once; every claim done", async () => {
    const { jobIds } = await fleet.deliver(EVENTS);
    expect(jobIds).toHaveLength(EVENTS);
    expect(fleet.undelivered(jobIds)).toBe(0);
    const byJob = await handled(jobIds);
    expect(byJob.size).toBe(EVENTS);
    expect([...byJob.values()].filter((receivers) => receivers.length > 1)).toEqual([]);
    // Each receiver took a share: the proxy spread the load.
    const perReceiver = new Set([...byJob.values()].flat());
    expect(perReceiver).toEqual(new Set(["r0", "r1", "r2"]));
    expect(await claimsOf(jobIds)).toEqual({ done: EVENTS });
  }, 120_000);

  it("one receiver SIGKILLed mid-run and restarted: 0 lost, twice only for its interrupted work, no claim stuck", async () => {
    const delivering = fleet.deliver(EVENTS);
    // Kill receiver 0 once a third of the events are handled and it has deliveries in flight.
    let inFlightAtKill = 0;
    for (let tries = 0; tries < 2000; tries++) {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM ${fleet.handledTable}`);
      if (Number(rows[0]?.n) >= EVENTS + EVENTS / 3 && fleet.proxy.inFlight(0) > 0) {
        inFlightAtKill = fleet.proxy.inFlight(0);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(inFlightAtKill, "receiver 0 had deliveries in flight when it was killed").toBeGreaterThan(0);
    const victim = fleet.receivers[0]!.name;
    await fleet.receivers[0]!.kill("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 200));
    await fleet.restart(0);
    const { jobIds } = await delivering;

    expect(fleet.undelivered(jobIds)).toBe(0);
    const byJob = await handled(jobIds);
    expect(byJob.size, "events never handled").toBe(EVENTS);
    const twice = [...byJob.entries()].filter(([, receivers]) => receivers.length > 1);
    for (const [job, receivers] of twice) {
      expect(receivers, `job ${job}`).toHaveLength(2);
      expect(receivers[0], `job ${job}: first handled by the killed receiver`).toBe(victim);
    }
    expect(twice.length).toBeLessThanOrEqual(inFlightAtKill);
    expect(fleet.proxy.badGateways).toBeGreaterThan(0);
    // The killed receiver's claims lapsed and were taken over: nothing is left in progress.
    expect(await claimsOf(jobIds)).toEqual({ done: EVENTS });
    process.stdout.write(`kill: ${inFlightAtKill} in flight at the kill, ${twice.length} events handled twice, ${fleet.proxy.badGateways} 502s\n`);
  }, 120_000);
});
