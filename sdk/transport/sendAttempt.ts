/** The innermost send: one HTTP exchange over undici, the whole body read (bounded), as a TransportResponse. */
import type { Dispatcher } from "undici";
import { errnoOf } from "./attemptErrors";
import type { Send } from "./exchange";
import { requestNotSent } from "./retryPolicy";
import { request } from "./undiciParts";

export interface AttemptLimits {
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  maxResponseBytes: number;
}

export class ResponseTooLargeError extends Error {
  readonly code = "RESPONSE_TOO_LARGE";
}

export function sendAttempt(dispatcher: Dispatcher, limits: AttemptLimits): Send {
  return async function sendOnce(exchange) {
    // Unanswered until the answer's head arrives (the platform has acted, or will not act).
    exchange.wire.unanswered++;
    let response: Dispatcher.ResponseData;
    try {
      response = await request(exchange.url, {
        dispatcher,
        method: exchange.method,
        headers: exchange.headers,
        body: exchange.body,
        signal: exchange.signal,
        headersTimeout: limits.headersTimeoutMs,
        bodyTimeout: limits.bodyTimeoutMs,
      });
    } catch (error) {
      // Never sent (refused, no such host): nothing is on the wire. Otherwise the answer is lost and the request
      // stays counted: the platform may still act on it.
      if (requestNotSent(errnoOf(error))) exchange.wire.unanswered--;
      throw error;
    }
    exchange.wire.unanswered--;
    const body = await readBounded(response, limits.maxResponseBytes);
    return {
      status: response.statusCode,
      headers: response.headers,
      body,
      requestId: headerValue(response.headers["x-request-id"]),
      attempts: exchange.attempt,
    };
  };
}

async function readBounded(response: Dispatcher.ResponseData, maxResponseBytes: number): Promise<string> {
  const declared = Number(response.headers["content-length"] ?? 0);
  if (declared > maxResponseBytes) {
    response.body.destroy();
    throw new ResponseTooLargeError(`response of ${declared} bytes exceeds ${maxResponseBytes}`);
  }
  // Small bodies (the usual api_v3 answer) are read in one go; the size cap still holds for streamed ones.
  if (declared > 0) return response.body.text();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > maxResponseBytes) {
      response.body.destroy();
      throw new ResponseTooLargeError(`response exceeds ${maxResponseBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
