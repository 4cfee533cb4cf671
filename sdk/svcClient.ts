/** SvcClient: the public api_v3 client (app tokens, templates, sessions, multirequest) on one transport. */
import { z } from "zod";
import { insecureHttpProblem, normalizeBaseUrl } from "../contract/baseUrl";
import { BaseUrl } from "../contract/baseUrlSchema";
import type { Dispatcher } from "undici";
import { parseAuth, type ClientAuth } from "./auth/credentials";
import { createSessionManager } from "./auth/sessionSource";
import type { SessionHandle, SessionManager } from "./auth/sessionManager";
import { type CallOptions, HttpTransport, type TransportEvent } from "./transport";
import { type RetryTuning, TRANSPORT_DEFAULTS } from "./transport/options";
import { createAgent as createUndiciAgent } from "./transport/undiciParts";
import { AppTokens } from "./platform/appTokens";
import { EventNotificationTemplates } from "./platform/eventNotificationTemplates";
import { EMAIL_TEMPLATES, type EmailTemplateTypes, HTTP_TEMPLATES } from "./platform/templateKinds";
import { multirequest, type MultiRequestEntry, type MultiRequestResult } from "./platform/multirequest";
import { ReadBatcher, type ReadBatching } from "./platform/readBatcher";
import { PlatformApi } from "./platform/platformApi";
import { PlatformWire } from "./platform/platformWire";
import { SessionService } from "./platform/sessionService";
import { validateInput } from "./platform/validate";
import { SvcValidationError } from "./core/errors";

export interface SvcClientOptions {
  /** The api_v3 root, e.g. https://host/api_v3 (a trailing slash is ignored). Plain http only to loopback, unless allowInsecureHttp. */
  baseUrl: string;
  /**
   * Allow a plain `http://` baseUrl to a host outside loopback (127.0.0.0/8, ::1, localhost); default false. Every
   * call carries a credential, which would then travel unencrypted: only for a network you trust.
   */
  allowInsecureHttp?: boolean;
  /** Account id; a numeric string is accepted (stack config values are strings). */
  partnerId: number | string;
  auth: ClientAuth;
  /** Overall deadline per call (all retries included); default 30000. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 3. */
  maxRetries?: number;
  /** Sockets to the platform; default 16. */
  connections?: number;
  /** Requests in flight at once over this client; the others wait in order (default: no limit). */
  maxConcurrency?: number;
  /** Timeout of one attempt waiting for the answer (headers, then body); default 15000. Retried like a lost answer. */
  attemptTimeoutMs?: number;
  /** Use this undici Dispatcher instead of the client's own Agent (tests: MockAgent). */
  dispatcher?: Dispatcher;
  /** Telemetry: request/response/retry/error events, never carrying secrets. */
  onEvent?: (event: TransportEvent) => void;
  /** Backoff tuning (tests use small delays). */
  retry?: RetryTuning;
  /**
   * Send the `get`s made at about the same time as multirequests of at most `maxBatch`, the first waiting `waitMs` for
   * the others; each still answers with its own object or error. Default off (the provider turns it on for refresh).
   */
  batchReads?: ReadBatching;
}

const Options = z.object({
  baseUrl: BaseUrl,
  allowInsecureHttp: z.boolean().optional(),
  partnerId: z.union([z.number().int().positive(), z.string().regex(/^\d+$/, "must be a positive integer").transform(Number)]),
  auth: z.unknown(),
  timeoutMs: z.number().int().positive().optional(),
  maxRetries: z.number().int().min(0).max(20).optional(),
  connections: z.number().int().positive().optional(),
  maxConcurrency: z.number().int().positive().optional(),
  attemptTimeoutMs: z.number().int().positive().optional(),
  dispatcher: z.custom<Dispatcher>((v) => typeof (v as Dispatcher | undefined)?.dispatch === "function", "must be an undici Dispatcher").optional(),
  onEvent: z.custom<(event: TransportEvent) => void>((v) => typeof v === "function", "must be a function").optional(),
  retry: z
    .strictObject({ baseDelayMs: z.number().min(0).optional(), maxDelayMs: z.number().min(0).optional(), maxRetryAfterMs: z.number().min(0).optional() })
    .optional(),
  batchReads: z.strictObject({ maxBatch: z.number().int().min(1).max(500), waitMs: z.number().min(0).max(1_000) }).optional(),
});

/** client.sessions: the managed session (start/end/current) and the raw session service. */
export class ClientSessions {
  constructor(
    private readonly manager: SessionManager,
    /** session.start / startWidgetSession / end on the wire, without caching. */
    readonly service: SessionService,
  ) {}

  /** Start a fresh session now (replacing the cached one) and return it. */
  start(options?: CallOptions): Promise<SessionHandle> {
    return this.manager.start(options);
  }

  /** End the cached session (session.end); the next call starts a new one. */
  end(options?: CallOptions): Promise<void> {
    return this.manager.end(options);
  }

  /** The cached session, without any call; undefined before the first call. */
  current(): SessionHandle | undefined {
    return this.manager.handle();
  }
}

export class SvcClient {
  readonly partnerId: number;
  readonly baseUrl: string;
  readonly appTokens: AppTokens;
  /** Event notification templates: the HTTP kind (its lists cover every kind unless filtered). */
  readonly templates: EventNotificationTemplates;
  /** Email notification templates: the same client of the same service, typed for the email kind. */
  readonly emailTemplates: EventNotificationTemplates<EmailTemplateTypes>;
  readonly sessions: ClientSessions;
  private readonly api: PlatformApi;
  private readonly transport: HttpTransport;

  constructor(options: SvcClientOptions) {
    const parsed = validateInput(Options, options, "SvcClient");
    const insecure = insecureHttpProblem(parsed.baseUrl, parsed.allowInsecureHttp === true, "the SvcClient option `allowInsecureHttp: true`");
    if (insecure) throw new SvcValidationError(`SvcClient: baseUrl: ${insecure}`);
    const auth = parseAuth(options.auth);
    this.partnerId = parsed.partnerId;
    this.baseUrl = normalizeBaseUrl(parsed.baseUrl);
    this.transport = new HttpTransport({
      timeoutMs: parsed.timeoutMs,
      maxRetries: parsed.maxRetries,
      connections: parsed.connections,
      maxConcurrency: parsed.maxConcurrency,
      headersTimeoutMs: parsed.attemptTimeoutMs,
      bodyTimeoutMs: parsed.attemptTimeoutMs,
      dispatcher: parsed.dispatcher,
      onEvent: parsed.onEvent,
      retry: parsed.retry,
    });
    // Built in dependency order: the wire, the sessions made on it, then the api that uses those sessions.
    const wire = new PlatformWire(this.baseUrl, this.transport);
    const sessionService = new SessionService(wire);
    const manager = createSessionManager(auth, { partnerId: this.partnerId, sessions: sessionService, wire });
    const batching = parsed.batchReads;
    this.api = new PlatformApi(wire, manager, batching ? (api) => new ReadBatcher(api, batching) : undefined);
    this.appTokens = new AppTokens(this.api);
    this.templates = new EventNotificationTemplates(this.api, HTTP_TEMPLATES);
    this.emailTemplates = new EventNotificationTemplates(this.api, EMAIL_TEMPLATES);
    this.sessions = new ClientSessions(manager, sessionService);
  }

  /** Several calls in one request; each slot is { ok: true, value } or { ok: false, error }. */
  multirequest(entries: MultiRequestEntry[], options?: CallOptions): Promise<MultiRequestResult[]> {
    return multirequest(this.api, entries, options);
  }

  /** Close the connections (the session is not ended: call sessions.end() first if you want that). */
  close(): Promise<void> {
    return this.transport.close();
  }
}

/**
 * An undici Agent for clients to share (the `dispatcher` option): a process serving many accounts of one platform
 * keeps one pool of sockets per origin instead of one per client. The clients given it leave it open; its owner closes it.
 */
export function createAgent(options: { connections: number }): Dispatcher {
  return createUndiciAgent({
    connections: options.connections,
    keepAliveTimeout: TRANSPORT_DEFAULTS.keepAliveTimeoutMs,
    connect: { timeout: TRANSPORT_DEFAULTS.connectTimeoutMs },
  });
}
