/**
 * Telemetry: request/response/error events around each attempt, and the retry layer's retry events, sent to the
 * caller's onEvent hook. Events never carry secrets (the path is redacted, never the query or body); a hook that
 * throws never breaks a call. Without a hook the layer is not in the stack at all.
 */
import { safeErrorCode } from "../core/errors";
import { errnoOf } from "./attemptErrors";
import { elapsed, type Exchange, type Layer, labelOf, pathOf, type Send } from "./exchange";
import type { TransportEvent } from "./options";

export interface RetryNotice {
  delayMs: number;
  reason: string;
  status?: number;
}

export interface Telemetry {
  /** The layer that reports each attempt (identity when nobody listens). */
  layer: Layer;
  /** Reports that the retry layer will try `exchange` again. */
  retried(exchange: Exchange, notice: RetryNotice): void;
}

export function createTelemetry(onEvent: ((event: TransportEvent) => void) | undefined): Telemetry {
  if (!onEvent) return { layer: (next) => next, retried: () => {} };
  const emit = (event: TransportEvent): void => {
    try {
      onEvent(event);
    } catch {
      // A telemetry hook must never break a call.
    }
  };
  const base = (exchange: Exchange) => ({ ...labelOf(exchange), method: exchange.method, path: pathOf(exchange.url), attempt: exchange.attempt });

  function reportAttempts(next: Send): Send {
    return async function sendReported(exchange) {
      emit({ type: "request", ...base(exchange) });
      const started = performance.now();
      try {
        const response = await next(exchange);
        const serverTimeMs = Date.parse(headerValue(response.headers.date) ?? "");
        emit({
          type: "response",
          ...base(exchange),
          status: response.status,
          ms: elapsed(started),
          requestId: response.requestId,
          ...(Number.isNaN(serverTimeMs) ? {} : { serverTimeMs }),
        });
        return response;
      } catch (error) {
        // An attempt cut by the deadline or the caller reports the code the call ends with.
        const errorCode = safeErrorCode(exchange.signal.aborted ? (exchange.signal.reason as { code: string }).code : errnoOf(error));
        emit({ type: "error", ...base(exchange), ms: elapsed(started), errorCode });
        throw error;
      }
    };
  }

  return {
    layer: reportAttempts,
    retried(exchange, notice) {
      emit({ type: "retry", ...base(exchange), ...notice });
    },
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
