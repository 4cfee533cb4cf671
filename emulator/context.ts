/**
 * The EmulatorContext: built once per emulator and handed to every router factory. It owns the store,
 * the clock, the seeded account, session checks, event delivery, faults and request stats.
 */
import { randomBytes, randomInt } from "node:crypto";
import { PartnerTraffic } from "./api/partnerTraffic";
import { RequestStats } from "./api/stats";
import type { DeliveryOptions } from "./events/deliverer";
import { Deliverer } from "./events/deliverer";
import { EmailDeliverer } from "./events/emailDeliverer";
import { EmailNotifier } from "./events/emailNotifier";
import { EventNotifier } from "./events/notifier";
import { SmtpSink } from "./mail/smtpSink";
import { accessPolicy, type AccessPolicy } from "./middleware/controlAccess";
import { FaultController, type FaultConfig } from "./middleware/faults";
import { SessionManager } from "./sessions/sessionManager";
import type { DatabaseSync } from "./store/quietSqlite";
import { EmailDeliveryStore } from "./store/emailDeliveryStore";
import { Store, type PartnerRow } from "./store/store";

export type { SessionInfo } from "./sessions/sessionManager";

export interface EmulatorOptions {
  /** SQLite file holding the state; in-memory when absent. */
  stateFile?: string;
  /** Seeded account id; generated once (and persisted) when absent. */
  partnerId?: number;
  /** Seeded account admin secret; generated once (and persisted) when absent. */
  adminSecret?: string;
  faults?: FaultConfig;
  /** Webhook and email delivery: attempts, backoff, per-attempt timeout. */
  delivery?: Partial<DeliveryOptions>;
  /** Where the mail sink (SMTP) listens; default 127.0.0.1, port 0 (any free one). It starts with startEmulator, or on the first email. */
  smtp?: { host?: string; port?: number };
  /** No log lines on stdout. */
  quiet?: boolean;
  /** Milliseconds clock; injectable for tests of expiry. */
  now?: () => number;
  /** The address the emulator listens on (default 127.0.0.1); a non-loopback one closes the control API (below). */
  host?: string;
  /** Off loopback, the control API answers only `Authorization: Bearer <controlToken>` (16+ characters); without one it is off there. */
  controlToken?: string;
  /** Off loopback, the origins the avatar APIs admit (CORS); none by default (on loopback: `*`). */
  corsOrigins?: readonly string[];
}

export interface EmulatorContext {
  db: DatabaseSync;
  store: Store;
  /** Milliseconds since the epoch. */
  now(): number;
  /** The seeded account. */
  partner: { partnerId: number; adminSecret: string };
  sessions: SessionManager;
  events: EventNotifier;
  deliverer: Deliverer;
  /** Email templates' side: the SMTP sink, the email delivery log and its sender. */
  mail: { sink: SmtpSink; log: EmailDeliveryStore; deliverer: EmailDeliverer };
  faults: FaultController;
  stats: RequestStats;
  /** Calls in flight per account, and faults aimed at one account (api/partnerTraffic.ts). */
  traffic: PartnerTraffic;
  /** Who may use the control API and which origins CORS admits (loopback: open and `*`). */
  access: AccessPolicy;
  log(line: string): void;
  /** Adds another account (control API), for tests that need a second partner. */
  createPartner(adminSecret?: string): PartnerRow;
  close(): Promise<void>;
}

const SEED_KEY = "seedPartnerId";

export function createEmulatorContext(opts: EmulatorOptions = {}): EmulatorContext {
  const store = new Store(opts.stateFile ?? ":memory:");
  const now = opts.now ?? Date.now;
  const log = opts.quiet ? () => {} : (line: string) => console.log(`[svc-emulator] ${line}`);
  const partner = seedPartner(store, opts, now);
  const deliverer = new Deliverer(store, now, opts.delivery, log);
  const faults = new FaultController(opts.faults);
  const sink = new SmtpSink(faults, now);
  sink.configure(opts.smtp?.host ?? "127.0.0.1", opts.smtp?.port ?? 0);
  const emailLog = new EmailDeliveryStore(store.db);
  const emailDeliverer = new EmailDeliverer(emailLog, sink, now, opts.delivery, log);
  const ctx: EmulatorContext = {
    db: store.db,
    store,
    now,
    partner,
    sessions: new SessionManager(store, now),
    events: new EventNotifier(store, now, deliverer, new EmailNotifier(store, emailLog, now, emailDeliverer)),
    deliverer,
    mail: { sink, log: emailLog, deliverer: emailDeliverer },
    faults,
    stats: new RequestStats(),
    traffic: new PartnerTraffic(),
    access: accessPolicy({ host: opts.host, controlToken: opts.controlToken, corsOrigins: opts.corsOrigins }),
    log,
    createPartner(adminSecret = randomBytes(16).toString("hex")) {
      let id = randomInt(100_000, 1_000_000);
      while (store.getPartner(id)) id = randomInt(100_000, 1_000_000);
      const row = { id, adminSecret, createdAt: Math.floor(now() / 1000) };
      store.upsertPartner(row);
      return row;
    },
    async close() {
      await deliverer.close();
      await emailDeliverer.close();
      await sink.close();
      store.close();
    },
  };
  deliverer.resumePending();
  emailDeliverer.resumePending();
  return ctx;
}

/** The seeded account: from options, else the one persisted in the state file, else a new one. */
function seedPartner(store: Store, opts: EmulatorOptions, now: () => number): { partnerId: number; adminSecret: string } {
  const storedId = store.getMeta(SEED_KEY);
  const partnerId = opts.partnerId ?? (storedId !== undefined ? Number(storedId) : randomInt(100_000, 1_000_000));
  const existing = store.getPartner(partnerId);
  const adminSecret = opts.adminSecret ?? existing?.adminSecret ?? randomBytes(16).toString("hex");
  store.transaction(() => {
    store.upsertPartner({ id: partnerId, adminSecret, createdAt: existing?.createdAt ?? Math.floor(now() / 1000) });
    store.setMeta(SEED_KEY, String(partnerId));
  });
  return { partnerId, adminSecret };
}
