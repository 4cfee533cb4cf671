/** Types and the single defaults block of the transport. */
import type { Dispatcher } from "undici";

/** Every default of the transport, in one place. */
export const TRANSPORT_DEFAULTS = {
  /** Overall deadline of one call, all attempts and waits included. */
  timeoutMs: 30_000,
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  /** Retries after the first attempt. */
  maxRetries: 3,
  /** Full jitter: wait random(0, min(maxDelayMs, baseDelayMs * 2^(retry-1))). */
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  /** A server's Retry-After is honoured up to this many milliseconds. */
  maxRetryAfterMs: 30_000,
  /** Sockets per origin. */
  connections: 16,
  keepAliveTimeoutMs: 10_000,
  /** Responses larger than this are refused (protects the process from a runaway body). */
  maxResponseBytes: 32 * 1024 * 1024,
  /** Statuses that say "try again": the request was not (fully) processed. */
  retryStatuses: [408, 429, 500, 502, 503, 504] as readonly number[],
} as const;

export interface RetryTuning {
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
}

export type TransportEvent =
  | (EventBase & { type: "request" })
  | (EventBase & { type: "response"; status: number; ms: number; requestId?: string; serverTimeMs?: number })
  | (EventBase & { type: "retry"; delayMs: number; reason: string; status?: number })
  | (EventBase & { type: "error"; ms: number; errorCode: string; status?: number; requestId?: string });

interface EventBase {
  service?: string;
  action?: string;
  method: string;
  /** URL path only (never the query string), redacted. */
  path: string;
  /** 1 for the first attempt. */
  attempt: number;
}

export interface TransportOptions {
  /** Defaults for every request of this transport (each request may override). */
  timeoutMs?: number;
  maxRetries?: number;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  connections?: number;
  keepAliveTimeoutMs?: number;
  /** Attempts in flight at once over the whole transport; the others wait in order (default: no limit). */
  maxConcurrency?: number;
  retry?: RetryTuning;
  /** An undici Dispatcher to use instead of the transport's own Agent (tests: MockAgent). Not closed by close(). */
  dispatcher?: Dispatcher;
  /** Telemetry hook; called synchronously, its exceptions are swallowed. Events never carry secrets. */
  onEvent?: (event: TransportEvent) => void;
  /** Injected randomness for the jitter (tests). */
  random?: () => number;
}

/** Per-call knobs every public sdk method accepts as its optional last argument. */
export interface CallOptions {
  timeoutMs?: number;
  maxRetries?: number;
  signal?: AbortSignal;
}

export interface TransportRequest extends CallOptions {
  method?: Dispatcher.HttpMethod;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /**
   * True when repeating the request cannot change the end state (reads, full-value updates, deletes, session
   * starts). False for creates: see RETRY_RULES (sdk/transport/retryPolicy.ts) for what each class retries.
   */
  idempotent: boolean;
  /** Labels for events and errors (e.g. the api_v3 service and action, or an avatar operation). */
  service?: string;
  action?: string;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text (utf-8). */
  body: string;
  requestId: string | undefined;
  /** How many attempts were made (1 = no retry). */
  attempts: number;
}

export interface Transport {
  request(req: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}
