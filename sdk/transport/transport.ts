/**
 * createTransport: a generic HTTP transport on undici for every sdk API (api_v3, avatar APIs). One Agent per
 * transport (keep-alive, bounded connections, connect/headers/body timeouts) under a stack of layers, outermost
 * first: the call's deadline and cancellation, retries, the client-wide gate, telemetry, then one attempt. It
 * knows nothing about api_v3: callers map statuses and bodies to their own errors.
 */
import type { Dispatcher } from "undici";
import { SvcError } from "../core/errors";
import { composeLayers } from "./composeLayers";
import { deadlineLayer } from "./deadlineLayer";
import type { Exchange, Send } from "./exchange";
import { gateLayer } from "./gateLayer";
import { TRANSPORT_DEFAULTS, type Transport, type TransportOptions, type TransportRequest, type TransportResponse } from "./options";
import { createRequestGate } from "./requestGate";
import { retryLayer } from "./retryLayer";
import { parseRetryAfter, retryDelayMs } from "./retryPolicy";
import { sendAttempt } from "./sendAttempt";
import { createTelemetry } from "./telemetryLayer";
import { createAgent } from "./undiciParts";

/** Not aborted until a layer gives the exchange its own signal (the deadline layer does, first). */
const NEVER_ABORTED = new AbortController().signal;

/** The transport of the sdk's clients: `request` sends one call down the stack of layers. */
export class HttpTransport implements Transport {
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly send: Send;
  private readonly config: { timeoutMs: number; maxRetries: number };
  private closed = false;

  constructor(options: TransportOptions = {}) {
    const config = {
      ...TRANSPORT_DEFAULTS,
      ...definedOnly(options.retry ?? {}),
      ...definedOnly({
        timeoutMs: options.timeoutMs,
        maxRetries: options.maxRetries,
        connectTimeoutMs: options.connectTimeoutMs,
        headersTimeoutMs: options.headersTimeoutMs,
        bodyTimeoutMs: options.bodyTimeoutMs,
        connections: options.connections,
        keepAliveTimeoutMs: options.keepAliveTimeoutMs,
      }),
    };
    this.config = config;
    this.ownsDispatcher = !options.dispatcher;
    this.dispatcher =
      options.dispatcher ??
      createAgent({
        connections: config.connections,
        keepAliveTimeout: config.keepAliveTimeoutMs,
        connect: { timeout: config.connectTimeoutMs },
        headersTimeout: config.headersTimeoutMs,
        bodyTimeout: config.bodyTimeoutMs,
      });
    const random = options.random ?? Math.random;
    const gate = createRequestGate(options.maxConcurrency);
    const telemetry = createTelemetry(options.onEvent);
    const throttlePauseMs = (exchange: Exchange, response: TransportResponse): number =>
      retryDelayMs(exchange.attempt, parseRetryAfter(response.headers["retry-after"]), config, random);
    this.send = composeLayers(
      deadlineLayer(),
      retryLayer({ tuning: config, random, onRetry: telemetry.retried }),
      gateLayer(gate, { throttlePauseMs }),
      telemetry.layer,
    )(sendAttempt(this.dispatcher, config));
  }

  request(req: TransportRequest): Promise<TransportResponse> {
    if (this.closed) return Promise.reject(new SvcError("CLIENT_CLOSED", "the client was closed", { service: req.service, action: req.action }));
    return this.send({
      method: req.method ?? "POST",
      url: req.url,
      headers: req.headers,
      body: req.body,
      idempotent: req.idempotent,
      service: req.service,
      action: req.action,
      timeoutMs: req.timeoutMs ?? this.config.timeoutMs,
      maxRetries: req.maxRetries ?? this.config.maxRetries,
      callerSignal: req.signal,
      signal: NEVER_ABORTED,
      deadlineAt: Number.POSITIVE_INFINITY,
      attempt: 1,
      wire: { unanswered: 0 },
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
}

export function createTransport(options: TransportOptions = {}): HttpTransport {
  return new HttpTransport(options);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
