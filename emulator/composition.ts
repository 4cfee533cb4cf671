/**
 * The composition root: createEmulatorContext builds every service of one emulator (store, clock, seeded account,
 * sessions, event delivery, mail sink, faults, request stats) and wires them together. Only the entries (index.ts,
 * app.ts) import it; everything else takes the EmulatorContext type from context/emulatorContext.ts.
 */
import { randomBytes, randomInt } from "node:crypto";
import { stripUserinfo } from "../contract/urlUserinfo";
import type { EmulatorContext, EmulatorOptions } from "./context/emulatorContext";
import { PartnerTraffic } from "./context/partnerTraffic";
import { RequestStats } from "./context/requestStats";
import { EmailDeliverer } from "./events/emailDeliverer";
import { EventNotifier } from "./events/notifier";
import { WebhookDeliverer } from "./events/webhookDeliverer";
import { SmtpSink } from "./mail/smtpSink";
import { MAX_BODY_BYTES } from "./middleware/bodyLimits";
import { accessPolicy } from "./middleware/controlAccess";
import { FaultController } from "./middleware/faults";
import { SessionManager } from "./sessions/sessionManager";
import { EmailDeliveryStore } from "./store/emailDeliveryStore";
import { Store } from "./store/store";

export type { EmulatorContext, EmulatorOptions, SessionInfo } from "./context/emulatorContext";

const SEED_KEY = "seedPartnerId";

export function createEmulatorContext(opts: EmulatorOptions = {}): EmulatorContext {
  const store = new Store(opts.stateFile ?? ":memory:");
  const now = opts.now ?? Date.now;
  // Every log line of the emulator passes here: a URL in it (a webhook's, say) loses its user:password@.
  const log = opts.quiet ? () => {} : (line: string) => console.log(`[svc-emulator] ${stripUserinfo(line)}`);
  const partner = seedPartner(store, opts, now);
  const deliverer = new WebhookDeliverer(store, now, opts.delivery, log);
  const faults = new FaultController(opts.faults);
  const sink = new SmtpSink(faults, now);
  sink.configure(opts.smtp ?? {});
  const emailLog = new EmailDeliveryStore(store.db);
  const emailDeliverer = new EmailDeliverer(emailLog, sink, now, opts.delivery, log);
  const ctx: EmulatorContext = {
    db: store.db,
    store,
    now,
    partner,
    sessions: new SessionManager(store, now),
    events: new EventNotifier(store, now, deliverer, { log: emailLog, deliverer: emailDeliverer }),
    deliverer,
    mail: { sink, log: emailLog, deliverer: emailDeliverer },
    faults,
    stats: new RequestStats(),
    traffic: new PartnerTraffic(),
    access: accessPolicy({ host: opts.host, controlToken: opts.controlToken, corsOrigins: opts.corsOrigins }),
    maxApiBodyBytes: apiBodyCapOf(opts.maxApiBodyBytes),
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

function apiBodyCapOf(value: number | undefined): number {
  if (value === undefined) return MAX_BODY_BYTES.apiV3;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`maxApiBodyBytes: expected a positive whole number of bytes, got ${value}`);
  return value;
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
