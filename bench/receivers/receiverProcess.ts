/**
 * One webhook receiver process, as a team would run it: the sdk's createWebhookHandler on node:http, its replay
 * store in memory or on a shared PostgreSQL, and a callback whose work is to append the event's job id to a table
 * of the same database (then, optionally, to take a little longer, so that a kill finds callbacks in flight).
 * Started by fleet.ts with its settings in RECEIVER_CONFIG; prints {"port","pid"} once it listens.
 * GET /stats: how long its answers took (p50, p99), the share spent in the replay store, its CPU; POST
 * /stats/reset starts a new count. SIGTERM closes it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createWebhookHandler, MemoryReplayStore, PostgresReplayStore, type ReplayStore } from "../../sdk";
import { percentile } from "./percentile";

export interface ReceiverConfig {
  /** The name written beside each handled id (which receiver handled it). */
  name: string;
  secret: string;
  store: "memory" | "postgres";
  connectionString: string;
  /** The table each callback appends to: (event_id bigint, receiver text, at timestamptz). */
  handledTable: string;
  replayTable: string;
  leaseMs: number;
  /** Extra time each callback takes after its insert. */
  workMs: number;
  /** The store's pool size (PostgreSQL). */
  storeConnections: number;
  /** Names both pools' connections in pg_stat_activity (the bench counts a setup's connections by it). */
  applicationName: string;
}

interface Pool {
  query(query: { name: string; text: string; values: unknown[] }): Promise<unknown>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}

const config = JSON.parse(process.env.RECEIVER_CONFIG ?? "{}") as ReceiverConfig;
const { Pool } = require("pg") as { Pool: new (options: Record<string, unknown>) => Pool };
const work = new Pool({ connectionString: config.connectionString, max: 4, application_name: config.applicationName });
work.on("error", () => undefined);

let answers: number[] = [];
let storeMs = 0;
let cpuAtReset = process.cpuUsage();
let resetAt = performance.now();

/** The store, timed: the share of each answer spent in claim, complete and release. */
function timed(store: ReplayStore): ReplayStore {
  const time = async <T>(call: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await call();
    } finally {
      storeMs += performance.now() - started;
    }
  };
  return {
    claim: (key, leaseMs, owner) => time(() => store.claim(key, leaseMs, owner)),
    complete: (key, ttlMs, owner) => time(() => store.complete(key, ttlMs, owner)),
    release: (key, owner) => time(() => store.release(key, owner)),
  };
}

const store =
  config.store === "postgres"
    ? new PostgresReplayStore({
        connectionString: config.connectionString,
        table: config.replayTable,
        maxConnections: config.storeConnections,
        applicationName: config.applicationName,
      })
    : new MemoryReplayStore();

const handler = createWebhookHandler({
  secret: config.secret,
  replay: { store: timed(store), leaseMs: config.leaseMs },
  onEvent: async (event) => {
    const text = `INSERT INTO ${config.handledTable} (event_id, receiver) VALUES ($1, $2)`;
    await work.query({ name: "handled", text, values: [event.eventNotificationJobId, config.name] });
    if (config.workMs > 0) await sleep(config.workMs);
  },
  onError: (error, { stage }) => process.stderr.write(`receiver ${config.name}: ${stage}: ${(error as Error)?.message}\n`),
});

function stats(): Record<string, number | number[]> {
  const sorted = [...answers].sort((a, b) => a - b);
  const cpu = process.cpuUsage(cpuAtReset);
  const total = answers.reduce((sum, ms) => sum + ms, 0);
  return {
    answers: answers.length,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    storeShare: total > 0 ? storeMs / total : 0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs: performance.now() - resetAt,
    storeMs,
    answersMs: answers,
  };
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  if (req.url === "/stats") {
    if (req.method === "POST") {
      answers = [];
      storeMs = 0;
      cpuAtReset = process.cpuUsage();
      resetAt = performance.now();
    }
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(stats()));
    return;
  }
  const started = performance.now();
  res.once("finish", () => answers.push(performance.now() - started));
  handler(req, res);
});
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, pid: process.pid })}\n`);
});

process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void Promise.allSettled([work.end(), "close" in store ? (store as PostgresReplayStore).close() : undefined]).then(() => process.exit(0));
});
