/**
 * What the provider did to converge on a faulty platform (retries, create recoveries), as JSON lines appended to the
 * file named by SVC_PROVIDER_EVENTS_FILE when it is set (the bench and the fault tests read it; an operator can too).
 * Lines carry actions, reasons and object ids only, never a credential, a token value or a ks.
 */
import { appendFileSync } from "node:fs";
import { redact } from "../../sdk/core/redact";

export type ProviderEvent =
  | { type: "retry"; service?: string; action?: string; reason: string; delayMs: number }
  | { type: "recovery"; resource: string; outcome: "adopted" | "createdAgain" | "replacedUnreadable"; round: number; id?: string; cause: string }
  /** A create interrupted (Cancel, the deadline, the engine stopping the process) after its request was sent. */
  | { type: "interrupted"; resource: string; outcome: "nothingMade" | "found" | "deleted" | "reported" | "rolledBack" | "unknown"; id?: string; cause: string };

export function recordEvent(event: ProviderEvent): void {
  const file = process.env.SVC_PROVIDER_EVENTS_FILE;
  if (!file) return;
  try {
    appendFileSync(file, `${redact(JSON.stringify({ at: new Date().toISOString(), pid: process.pid, ...event }))}\n`);
  } catch {
    // Telemetry must never fail an operation.
  }
}
