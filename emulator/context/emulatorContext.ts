/**
 * What every router factory and platform service is handed: the EmulatorContext (the store, the clock, the seeded
 * account, session checks, event delivery, faults, request stats) and the options it is built from. Types only: the
 * implementations import this module; the one place that builds a context, emulator/composition.ts, imports them.
 */
import type { DeliveryOptions } from "../events/deliveryQueue";
import type { EmailDeliverer } from "../events/emailDeliverer";
import type { EventNotifier } from "../events/notifier";
import type { WebhookDeliverer } from "../events/webhookDeliverer";
import type { SmtpSink, SmtpSinkConfig } from "../mail/smtpSink";
import type { AccessPolicy } from "../middleware/controlAccess";
import type { FaultConfig, FaultController } from "../middleware/faults";
import type { SessionManager } from "../sessions/sessionManager";
import type { EmailDeliveryStore } from "../store/emailDeliveryStore";
import type { DatabaseSync } from "../store/quietSqlite";
import type { PartnerRow, Store } from "../store/store";
import type { PartnerTraffic } from "./partnerTraffic";
import type { RequestStats } from "./requestStats";

export type { SessionInfo } from "../sessions/sessionManager";

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
  /**
   * The mail sink (SMTP): where it listens (default 127.0.0.1, whatever `host` says: it has no authentication; port 0,
   * any free one), the largest message it takes (default 5 MiB) and the bytes its mailbox keeps (default 64 MiB, the
   * oldest messages dropped first). It starts with startEmulator, or on the first email.
   */
  smtp?: SmtpSinkConfig;
  /** The largest api_v3 request body read (bytes); larger ones are refused with 413. Default MAX_BODY_BYTES.apiV3 (4 MiB). */
  maxApiBodyBytes?: number;
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
  /** Webhooks' sender. */
  deliverer: WebhookDeliverer;
  /** Email templates' side: the SMTP sink, the email delivery log and its sender. */
  mail: { sink: SmtpSink; log: EmailDeliveryStore; deliverer: EmailDeliverer };
  faults: FaultController;
  stats: RequestStats;
  /** Calls in flight per account, and faults aimed at one account (api/partnerTraffic.ts). */
  traffic: PartnerTraffic;
  /** Who may use the control API and which origins CORS admits (loopback: open and `*`). */
  access: AccessPolicy;
  /** The api_v3 body cap in bytes (413 above it). */
  maxApiBodyBytes: number;
  log(line: string): void;
  /** Adds another account (control API), for tests that need a second partner. */
  createPartner(adminSecret?: string): PartnerRow;
  close(): Promise<void>;
}
