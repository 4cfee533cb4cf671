/**
 * One cached session per client: minted on first use, renewed before it expires, shared by concurrent
 * callers (single-flight: they all await the same mint), replaced once when the server rejects it.
 */
import { inspect } from "node:util";
import { SvcAbortError, SvcSessionError } from "../core/errors";
import type { KsSource } from "../platform/platformApi";
import { registerSecret } from "../core/redact";
import type { CallOptions } from "../transport";

export interface MintedSession {
  ks: string;
  /** Epoch milliseconds; undefined when unknown (a given ks). */
  expiresAt?: number;
}

/** The current session. The ks is readable but hidden from JSON.stringify, util.inspect and logs. */
export class SessionHandle {
  readonly expiresAt: number | undefined;
  readonly #ks: string;
  constructor(session: MintedSession) {
    this.#ks = session.ks;
    this.expiresAt = session.expiresAt;
  }
  get ks(): string {
    return this.#ks;
  }
  toJSON(): Record<string, unknown> {
    return { ks: "[REDACTED]", expiresAt: this.expiresAt };
  }
  [inspect.custom](): string {
    return `SessionHandle { ks: [REDACTED], expiresAt: ${this.expiresAt} }`;
  }
}

export interface SessionManagerOptions {
  mint: (options: CallOptions) => Promise<MintedSession>;
  end: (ks: string, options: CallOptions) => Promise<void>;
  /** False for a given ks: there is nothing to renew it from. */
  renewable: boolean;
  now?: () => number;
}

/** Renew when less than this share of the lifetime is left (and at most 5 minutes before expiry). */
const RENEW_SHARE = 0.1;
const MAX_RENEW_MARGIN_MS = 5 * 60_000;

export class SessionManager implements KsSource {
  private current: { session: MintedSession; renewAt: number } | undefined;
  private inflight: Promise<MintedSession> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: SessionManagerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Seed the cache (a given ks). */
  seed(session: MintedSession): void {
    registerSecret(session.ks);
    this.current = { session, renewAt: Number.POSITIVE_INFINITY };
  }

  async ks(options: CallOptions = {}): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return this.current.session.ks;
    if (!this.options.renewable) {
      if (this.current) return this.current.session.ks;
      throw new SvcSessionError("no session: the given ks was ended or rejected and cannot be renewed");
    }
    return (await this.mintShared(options)).ks;
  }

  /** The server refused `rejected` (INVALID_KS): drop it (if still current) and mint another. */
  async renew(rejected: string, options: CallOptions = {}): Promise<string> {
    if (!this.options.renewable) {
      throw new SvcSessionError("the given ks was rejected (INVALID_KS); configure adminSecret or an app token to renew sessions");
    }
    if (this.current?.session.ks === rejected) this.current = undefined;
    return this.ks(options);
  }

  /** Start a new session now (replacing the cached one). */
  async start(options: CallOptions = {}): Promise<SessionHandle> {
    if (this.options.renewable) this.current = undefined;
    await this.ks(options);
    return this.handle() as SessionHandle;
  }

  /** The cached session, if any (no call is made). */
  handle(): SessionHandle | undefined {
    return this.current ? new SessionHandle(this.current.session) : undefined;
  }

  /** session.end on the cached session and forget it; the next call mints a new one (when renewable). */
  async end(options: CallOptions = {}): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (current) await this.options.end(current.session.ks, options);
  }

  private async mintShared(options: CallOptions): Promise<MintedSession> {
    if (!this.inflight) {
      const mintedAt = this.now();
      // The shared mint ignores the first caller's signal: one caller cancelling must not fail the others.
      this.inflight = this.options
        .mint({ timeoutMs: options.timeoutMs, maxRetries: options.maxRetries })
        .then((session) => {
          registerSecret(session.ks);
          this.current = { session, renewAt: renewAt(mintedAt, session.expiresAt) };
          return session;
        })
        .finally(() => {
          this.inflight = undefined;
        });
    }
    return raceSignal(this.inflight, options.signal);
  }
}

function renewAt(mintedAt: number, expiresAt: number | undefined): number {
  if (expiresAt === undefined) return Number.POSITIVE_INFINITY;
  const margin = Math.min(MAX_RENEW_MARGIN_MS, (expiresAt - mintedAt) * RENEW_SHARE);
  return expiresAt - margin;
}

function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  // The call's own request was never sent (a session start makes nothing anyone manages): nothing of it can still act.
  const cancelled = () => new SvcAbortError("cancelled while waiting for a session", { requestOnWire: false });
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancelled());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
