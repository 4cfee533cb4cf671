/**
 * The transport is a stack of layers in undici's interceptor style: each layer takes the next `send` and returns
 * its own. An Exchange is one call as it passes down the stack; the outer layers fill what the inner ones read
 * (the deadline sets `signal` and `deadlineAt`, the retry layer `attempt`).
 */
import type { Dispatcher } from "undici";
import { redact } from "../core/redact";
import type { TransportResponse } from "./options";

export interface Exchange {
  method: Dispatcher.HttpMethod;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Repeating it cannot change the end state (see RETRY_RULES). */
  idempotent: boolean;
  service?: string;
  action?: string;
  /** Overall deadline of the call, all attempts and waits included. */
  timeoutMs: number;
  maxRetries: number;
  /** The caller's own signal, if any. */
  callerSignal?: AbortSignal;
  /** Aborted by the deadline or the caller; its `reason` is the SvcError the call ends with. */
  signal: AbortSignal;
  /** performance.now() at which the deadline passes. */
  deadlineAt: number;
  /** 1 for the first attempt. */
  attempt: number;
  /** The call's attempts sent and not yet answered, shared by every layer (see WireState). */
  wire: WireState;
}

/**
 * The call's requests whose answer has not come: counted up when an attempt is handed to undici, down when its
 * answer's head arrives or it fails before anything was sent (an answer lost on the way keeps it counted). When the
 * call is cut, this tells whether the platform may still act on what it sent, or the call was only waiting (for a
 * slot, a pause, a Retry-After) with every request answered.
 */
export interface WireState {
  unanswered: number;
}

export type Send = (exchange: Exchange) => Promise<TransportResponse>;
export type Layer = (next: Send) => Send;

/** The labels of a call for events and errors. */
export function labelOf(exchange: Exchange): { service?: string; action?: string } {
  return { service: exchange.service, action: exchange.action };
}

/** "service.action", or "METHOD /path" for calls without labels (avatar APIs), for error messages. */
export function describeCall(exchange: Exchange): string {
  return exchange.service && exchange.action ? `${exchange.service}.${exchange.action}` : `${exchange.method} ${pathOf(exchange.url)}`;
}

/** The URL's path only (never the query string), redacted. */
export function pathOf(url: string): string {
  try {
    return redact(new URL(url).pathname);
  } catch {
    return "(invalid url)";
  }
}

/** Milliseconds since `since` (a performance.now() value), rounded. */
export function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}
