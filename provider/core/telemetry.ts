/**
 * What the provider did to converge on a faulty platform (retries, throttling pauses, create recoveries, slow
 * calls), told twice: to people, as diagnostics on the resource's URN (operationLog.ts: the plugin sends them to the
 * engine, so they show in `pulumi up` and in `-v=9 --logflow` logs), and to machines, as JSON lines appended to the
 * file named by SVC_PROVIDER_EVENTS_FILE when it is set (the bench and the fault tests read it; an operator can too).
 * Both carry actions, reasons and object ids only, never a credential, a token value or a ks, and both pass the
 * sdk's redaction.
 */
import { appendFileSync } from "node:fs";
import { redact } from "../../sdk/core/redact";
import type { TransportEvent } from "../../sdk";
import type { LogLine, OperationLog, Severity } from "./operationLog";

export type ProviderEvent =
  | { type: "retry"; service?: string; action?: string; reason: string; delayMs: number; attempt?: number; status?: number }
  | {
      type: "recovery";
      resource: string;
      outcome: "adopted" | "createdAgain" | "replacedUnreadable" | "discardFailed";
      round: number;
      id?: string;
      cause: string;
    }
  /** A create interrupted (Cancel, the deadline, the engine stopping the process) after its request was sent. */
  | {
      type: "interrupted";
      resource: string;
      outcome: "nothingMade" | "found" | "deleted" | "reported" | "leftBehind" | "unknown";
      id?: string;
      cause: string;
    }
  | { type: "slowCall"; service?: string; action?: string; ms: number; status: number };

/** An answer slower than this is reported (info): a healthy platform answers in well under a second. */
export const SLOW_CALL_MS = 3_000;

/** Reports `event` on the operation's diagnostics (`log`: `ctx.log`, or the session's) and to the events file. */
export function recordEvent(log: LogLine, event: ProviderEvent): void {
  const { severity, message } = describeEvent(event);
  log(severity, message);
  const file = process.env.SVC_PROVIDER_EVENTS_FILE;
  if (!file) return;
  try {
    appendFileSync(file, `${redact(JSON.stringify({ at: new Date().toISOString(), pid: process.pid, ...event }))}\n`);
  } catch {
    // Telemetry must never fail an operation.
  }
}

/** The sdk client's event hook: retries and slow answers become events; every attempt counts for the summary. */
export function noteTransportEvent(log: OperationLog, event: TransportEvent): void {
  if (event.type === "request") log.countRequest("request");
  if (event.type === "retry") {
    log.countRequest("retry");
    recordEvent(log.diagnose, {
      type: "retry",
      service: event.service,
      action: event.action,
      reason: event.reason,
      delayMs: event.delayMs,
      attempt: event.attempt,
      ...(event.status !== undefined ? { status: event.status } : {}),
    });
  }
  if (event.type === "response" && event.ms >= SLOW_CALL_MS) {
    recordEvent(log.diagnose, { type: "slowCall", service: event.service, action: event.action, ms: Math.round(event.ms), status: event.status });
  }
}

/** The line a person reads, and how loud it is: what slowed the operation down is info, so `pulumi up` shows it. */
export function describeEvent(event: ProviderEvent): { severity: Severity; message: string } {
  switch (event.type) {
    case "retry": {
      const call = callName(event);
      // The sdk numbers the attempt that failed; the line names the one it waits for.
      const next = event.attempt === undefined ? undefined : event.attempt + 1;
      if (event.status === 429) {
        const what = next === undefined ? `retrying ${call}` : `attempt ${next} of ${call}`;
        return { severity: "info", message: `the platform is throttling requests (429): pausing ${event.delayMs} ms before ${what}` };
      }
      const attempt = next === undefined ? "" : ` (attempt ${next})`;
      return { severity: "info", message: `retrying ${call} in ${event.delayMs} ms${attempt}: ${causeOf(event.reason)}` };
    }
    case "recovery": {
      const round = `create round ${event.round}`;
      if (event.outcome === "adopted") {
        return {
          severity: "info",
          message: `recovered a create whose answer was lost (${event.cause}): found ${event.resource} ${event.id} made by it and adopted it (${round})`,
        };
      }
      if (event.outcome === "discardFailed") {
        return {
          severity: "warning",
          message: `a create's answer was lost (${event.cause}): ${event.resource} ${event.id} made by it could not be used, and deleting it failed; it remains on the platform, recorded by no stack: delete it, or run pulumi-svc recover after the run (${round})`,
        };
      }
      if (event.outcome === "replacedUnreadable") {
        return {
          severity: "info",
          message: `recovered a create whose answer was lost (${event.cause}): ${event.resource} ${event.id} made by it could not be read back, deleted it and created again (${round})`,
        };
      }
      return {
        severity: "info",
        message: `recovered a create whose answer was lost (${event.cause}): no ${event.resource} was made, creating again (${round})`,
      };
    }
    case "slowCall":
      return { severity: "info", message: `slow answer: ${callName(event)} took ${event.ms} ms (status ${event.status})` };
    case "interrupted": {
      const made = event.id === undefined ? "" : ` ${event.resource} ${event.id}`;
      const what: Record<typeof event.outcome, string> = {
        nothingMade: `no ${event.resource} was made`,
        found: `found${made} made by it`,
        deleted: `deleted${made} made by it, so nothing is left behind`,
        reported: `reported${made} to the engine as a partial create`,
        leftBehind: `${event.resource} ${event.id} may remain: deleting it failed or did not finish before the process had to stop; run pulumi-svc recover after the run`,
        unknown: `could not tell whether a ${event.resource} was made; one may remain (pulumi-svc recover after the run finds it)`,
      };
      return {
        severity: event.outcome === "unknown" || event.outcome === "leftBehind" ? "warning" : "info",
        message: `a create was interrupted (${event.cause}): ${what[event.outcome]}`,
      };
    }
  }
}

function callName(event: { service?: string; action?: string }): string {
  return event.service && event.action ? `${event.service}.${event.action}` : "a request";
}

/** The sdk's reason ("status 503", an undici or errno code) in words, the code kept for searching. */
function causeOf(reason: string): string {
  const status = /^status (\d+)$/.exec(reason)?.[1];
  if (status) return `the platform answered ${status}`;
  if (/TIMEOUT|TimeoutError|ETIMEDOUT/i.test(reason)) return `no answer in time (${reason})`;
  if (/SOCKET|ECONNRESET|EPIPE|CLOSED/i.test(reason)) return `the connection closed without an answer (${reason})`;
  if (/ECONNREFUSED/.test(reason)) return `the platform refused the connection (${reason})`;
  return `the request failed (${reason})`;
}
