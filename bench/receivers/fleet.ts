/**
 * The rig of the receivers' load test and bench part: the emulator (its webhook deliverer, retries and signatures),
 * one HTTP template pointing at a round-robin proxy, and receiver processes behind it (receiverProcess.ts, the
 * compiled file beside this one), sharing one PostgreSQL for their replay store and for the table their callbacks
 * append to. Loopback only. `deliver(n)` raises n events and waits until the deliverer has nothing left to send.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { startEmulator, type DeliveryOptions, type RunningEmulator } from "../../emulator";
import { sampleObject } from "../../emulator/events/catalog";
import { TemplateStatus } from "../../contract/platform";
import { SvcClient } from "../../sdk";
import type { ReceiverConfig } from "./receiverProcess";
import { startRoundRobinProxy, type RoundRobinProxy } from "./roundRobinProxy";

export interface ReceiverHandle {
  name: string;
  port: number;
  pid: number;
  /** Ends the process with `signal` and waits for its exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  stats(reset?: boolean): Promise<ReceiverStats>;
}

export interface ReceiverStats {
  answers: number;
  p50Ms: number;
  p99Ms: number;
  storeShare: number;
  cpuMs: number;
  wallMs: number;
  /** Time spent in the replay store, summed over the answers. */
  storeMs: number;
  /** Each answer's time, in the order they finished. */
  answersMs: number[];
}

export interface FleetOptions {
  receivers: number;
  store: ReceiverConfig["store"];
  /** postgres://user:password@127.0.0.1:port/db */
  connectionString: string;
  /** Tables of this run: `${prefix}_handled` and `${prefix}_replay`. */
  tablePrefix: string;
  leaseMs: number;
  workMs: number;
  storeConnections: number;
  delivery: Partial<DeliveryOptions>;
  /** Runs SQL (psql) on the shared database. */
  query(sql: string): Promise<string>;
}

export interface Fleet {
  receivers: ReceiverHandle[];
  proxy: RoundRobinProxy;
  emulator: RunningEmulator;
  handledTable: string;
  replayTable: string;
  /** Starts receiver `index` again (after a kill) and points its proxy slot at it. */
  restart(index: number): Promise<ReceiverHandle>;
  /** Raises `count` events now; resolves with their job ids once every delivery is delivered or given up. */
  deliver(count: number): Promise<{ jobIds: number[]; ms: number }>;
  /** Delivery rows of these job ids that did not end delivered. */
  undelivered(jobIds: number[]): number;
  close(): Promise<void>;
}

const SECRET = "bench-receivers-sign-secret-0123456789abcdef";
/** The compiled receiver: beside this file in dist/, or in dist/ when this runs from source (the tests). */
const RECEIVER = existsSync(join(__dirname, "receiverProcess.js"))
  ? join(__dirname, "receiverProcess.js")
  : join(__dirname, "..", "..", "dist", "bench", "receivers", "receiverProcess.js");

async function startReceiver(config: ReceiverConfig): Promise<ReceiverHandle> {
  const child: ChildProcess = spawn(process.execPath, ["--no-warnings", RECEIVER], {
    env: { ...process.env, RECEIVER_CONFIG: JSON.stringify(config) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code, signal) => reject(new Error(`receiver ${config.name} exited (${code ?? signal}) before it listened`)));
  });
  lines.close();
  const { port, pid } = JSON.parse(first) as { port: number; pid: number };
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    name: config.name,
    port,
    pid,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    stats: async (reset = false) => {
      const res = await fetch(`http://127.0.0.1:${port}/stats`, { method: reset ? "POST" : "GET" });
      return (await res.json()) as ReceiverStats;
    },
  };
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const handledTable = `${options.tablePrefix}_handled`;
  const replayTable = `${options.tablePrefix}_replay`;
  await options.query(`CREATE TABLE ${handledTable} (event_id bigint NOT NULL, receiver text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  const config = (index: number, generation = 0): ReceiverConfig => ({
    name: `r${index}${generation > 0 ? `.${generation}` : ""}`,
    secret: SECRET,
    store: options.store,
    connectionString: options.connectionString,
    handledTable,
    replayTable,
    leaseMs: options.leaseMs,
    workMs: options.workMs,
    storeConnections: options.storeConnections,
    applicationName: `receivers ${options.tablePrefix}`,
  });
  const receivers: ReceiverHandle[] = [];
  const generations: number[] = [];
  const closers: (() => Promise<void>)[] = [];
  try {
    for (let i = 0; i < options.receivers; i++) {
      receivers.push(await startReceiver(config(i)));
      generations.push(0);
    }
    closers.push(() => Promise.all(receivers.map((r) => r.kill("SIGTERM"))).then(() => undefined));
    const proxy = await startRoundRobinProxy(receivers.map((r) => r.port));
    closers.push(() => proxy.close());
    const emulator = await startEmulator({ port: 0, quiet: true, delivery: options.delivery });
    closers.push(() => emulator.close());
    const admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    closers.push(() => admin.close());
    const system = await admin.templates.listTemplates({ typeEqual: "httpNotification.Http" });
    const entryAdded = system.objects.find((t) => t.systemName === "HTTP_ENTRY_ADDED");
    if (!entryAdded) throw new Error("the emulator has no HTTP_ENTRY_ADDED system template");
    const template = await admin.templates.clone(entryAdded.id, {
      name: "receivers at scale",
      systemName: `receivers_${options.tablePrefix}`,
      url: proxy.url,
      method: 2,
      signSecret: SECRET,
      secureHashingAlgo: 2,
    });
    await admin.templates.updateStatus(template.id, TemplateStatus.ACTIVE);
    const ctx = emulator.ctx;
    return {
      receivers,
      proxy,
      emulator,
      handledTable,
      replayTable,
      async restart(index) {
        generations[index] = (generations[index] ?? 0) + 1;
        const receiver = await startReceiver(config(index, generations[index]));
        receivers[index] = receiver;
        proxy.setUpstream(index, receiver.port);
        return receiver;
      },
      async deliver(count) {
        const started = performance.now();
        const object = sampleObject("entry.added", ctx.partner.partnerId, Math.floor(ctx.now() / 1000));
        const jobIds: number[] = [];
        for (let i = 0; i < count; i++) jobIds.push(...ctx.events.raise(ctx.partner.partnerId, "entry.added", object).jobIds);
        await ctx.deliverer.idle();
        return { jobIds, ms: performance.now() - started };
      },
      undelivered(jobIds) {
        const wanted = new Set(jobIds);
        return ctx.store.listDeliveries({ templateId: template.id }).filter((d) => wanted.has(d.jobId) && d.state !== "delivered").length;
      },
      async close() {
        for (const close of closers.reverse()) await close().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}
