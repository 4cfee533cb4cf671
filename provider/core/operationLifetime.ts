/**
 * How long the operations of one provider process may run: each its own deadline, all of them until Cancel, and a
 * short grace for the end of a create that was interrupted. Owned by the provider session (providerSession.ts).
 */

/**
 * The overall deadline of one provider operation (each HTTP call also has its own timeout): 120 s, or
 * SVC_OPERATION_DEADLINE_MS (milliseconds, 1000 or more) in the environment of the engine, which its provider
 * processes inherit.
 */
export const OPERATION_DEADLINE_MS = deadlineFrom(process.env.SVC_OPERATION_DEADLINE_MS) ?? 120_000;

function deadlineFrom(text: string | undefined): number | undefined {
  if (text === undefined || text === "") return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 1_000) {
    throw new Error(`SVC_OPERATION_DEADLINE_MS: expected a whole number of milliseconds, 1000 or more, got ${JSON.stringify(text)}`);
  }
  return ms;
}

/**
 * How long a create that was interrupted (Cancel, the deadline, or the engine stopping the process) may still spend
 * learning whether the platform made its object and reporting or deleting it. Under the 5 s the engine waits between
 * its SIGINT to a provider process and SIGKILL (pkg/resource/plugin/plugin.go).
 */
export const INTERRUPTED_CREATE_GRACE_MS = 3_500;

/**
 * A signal for the end of an interrupted create (the look-up of what it made, a report or a delete): bounded by
 * INTERRUPTED_CREATE_GRACE_MS and, on purpose, not cut by the cancel that interrupted it.
 */
export function graceSignal(): AbortSignal {
  return AbortSignal.timeout(INTERRUPTED_CREATE_GRACE_MS);
}

export class OperationLifetime {
  /** Aborted by the plugin's Cancel (the engine is stopping): every operation in flight ends at its next await. */
  private readonly cancelled = new AbortController();
  /** Set when the engine has closed its connection and is stopping this process: no answer can reach it any more. */
  private terminating = false;

  /** `deadlineMs`: the deadline of each operation (tests give a short one). */
  constructor(readonly deadlineMs: number = OPERATION_DEADLINE_MS) {}

  /** The signal of an operation that starts now: its deadline, or Cancel. */
  signal(): AbortSignal {
    return AbortSignal.any([AbortSignal.timeout(this.deadlineMs), this.cancelled.signal]);
  }

  /** Cancel every operation in flight and every later one of this process (the plugin's Cancel). */
  cancel(): void {
    this.cancelled.abort(new Error("the operation was cancelled (pulumi cancel, or the engine is stopping)"));
  }

  /**
   * The engine is stopping this process (a second Ctrl-C, or the end of a cancelled run): it has closed its
   * connection, so an answer can no longer record anything. Operations are cancelled, and creates delete what they made.
   */
  terminate(): void {
    this.terminating = true;
    this.cancel();
  }

  isTerminating(): boolean {
    return this.terminating;
  }

  /** Whether Cancel (or the engine stopping the process) has come: the run is ending, answers may be lost. */
  isCancelled(): boolean {
    return this.cancelled.signal.aborted;
  }
}
