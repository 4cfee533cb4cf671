/**
 * How long the operations of one provider process may run: each its own deadline, all of them until Cancel, and a
 * short grace for the end of a create that was interrupted. Owned by the provider process (providerProcess.ts).
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
 * How long a create that was interrupted (Cancel, the deadline, or the engine stopping the process) may spend on one
 * step of its end once the platform can no longer act on what it sent: reporting or deleting what it made. Under the
 * 5 s the engine waits between its SIGINT to a provider process and SIGKILL (pkg/resource/plugin/plugin.go).
 */
export const INTERRUPTED_CREATE_GRACE_MS = 3_500;

/**
 * From the engine's SIGINT (the process is being stopped) to this process's exit: every end of an interrupted create
 * and every roll-back shares it, so the process exits before the engine's SIGKILL at 5 s, with room for the exit.
 */
export const EXIT_BUDGET_MS = 4_250;

/** A signal for one step of an interrupted create's end, for callers with no lifetime: INTERRUPTED_CREATE_GRACE_MS. */
export function graceSignal(): AbortSignal {
  return AbortSignal.timeout(INTERRUPTED_CREATE_GRACE_MS);
}

function abortOperation(ref: WeakRef<AbortSignal>, controllers: WeakMap<AbortSignal, AbortController>, reason: unknown): void {
  const signal = ref.deref();
  if (signal && !signal.aborted) controllers.get(signal)?.abort(reason);
}

export class OperationLifetime {
  /** Aborted by the plugin's Cancel (the engine is stopping): every operation in flight ends at its next await. */
  private readonly cancelled = new AbortController();
  /** Set when the engine has closed its connection and is stopping this process: no answer can reach it any more. */
  private terminating = false;
  /** Aborted when the exit budget (EXIT_BUDGET_MS from the engine's SIGINT) runs out. */
  private readonly exit = new AbortController();
  /** When the process must have exited (local ms), once terminating. */
  private exitByMs: number | undefined;

  /** `deadlineMs`: the deadline of each operation; `exitBudgetMs`: from the engine's SIGINT to the exit (tests give short ones). */
  constructor(
    readonly deadlineMs: number = OPERATION_DEADLINE_MS,
    private readonly exitBudgetMs: number = EXIT_BUDGET_MS,
  ) {}

  /**
   * The signals of operations still referenced (held weakly) and each one's controller, for Cancel. Not
   * AbortSignal.any([timeout, cancelled]): every such signal is a dependant of the one long-lived Cancel signal, and
   * Node, as each of them is collected, walks all of that signal's dependants (lib/internal/abort_controller.js,
   * dependantSignalsCleanupRegistry): a refresh of 1,000 resources spent more CPU there than on anything else of a Read.
   */
  private readonly inFlight = new Set<WeakRef<AbortSignal>>();
  private readonly controllers = new WeakMap<AbortSignal, AbortController>();
  private readonly collected = new FinalizationRegistry<{ ref: WeakRef<AbortSignal>; timer: NodeJS.Timeout }>(({ ref, timer }) => {
    this.inFlight.delete(ref);
    clearTimeout(timer);
  });

  /** The signal of an operation that starts now: its deadline (a TimeoutError, as AbortSignal.timeout), or Cancel. */
  signal(): AbortSignal {
    if (this.cancelled.signal.aborted) return AbortSignal.abort(this.cancelled.signal.reason);
    const controller = new AbortController();
    const { signal } = controller;
    const ref = new WeakRef(signal);
    // Weak, as AbortSignal.timeout's: a signal no one holds any more is not kept for its deadline.
    const timer = setTimeout(
      () => abortOperation(ref, this.controllers, new DOMException("The operation was aborted due to timeout", "TimeoutError")),
      this.deadlineMs,
    );
    timer.unref();
    this.controllers.set(signal, controller);
    this.inFlight.add(ref);
    this.collected.register(signal, { ref, timer });
    return signal;
  }

  /** Cancel every operation in flight and every later one of this process (the plugin's Cancel). */
  cancel(): void {
    this.cancelled.abort(new Error("the operation was cancelled (pulumi cancel, or the engine is stopping)"));
    for (const ref of this.inFlight) abortOperation(ref, this.controllers, this.cancelled.signal.reason);
    this.inFlight.clear();
  }

  /**
   * The engine is stopping this process (a second Ctrl-C, or the end of a cancelled run): it has closed its
   * connection, so an answer can no longer record anything. Operations are cancelled, and creates delete what they made.
   */
  terminate(): void {
    if (!this.terminating) {
      this.terminating = true;
      this.exitByMs = Date.now() + this.exitBudgetMs;
      setTimeout(() => this.exit.abort(new Error("the process is exiting (the engine kills it 5 s after stopping it)")), this.exitBudgetMs).unref();
    }
    this.cancel();
  }

  /**
   * The signal of a step of an interrupted create's end that may run until `untilMs` (local clock): not cut by the
   * cancel that interrupted it, but by the exit budget once the engine is stopping the process.
   */
  endUntil(untilMs: number): AbortSignal {
    const end = Math.min(untilMs, this.exitByMs ?? untilMs);
    if (!Number.isFinite(end)) return this.exit.signal;
    return AbortSignal.any([AbortSignal.timeout(Math.max(0, end - Date.now())), this.exit.signal]);
  }

  /** One step (a report, a delete) of an interrupted create's end: INTERRUPTED_CREATE_GRACE_MS, within the exit budget. */
  grace(): AbortSignal {
    return this.endUntil(Date.now() + INTERRUPTED_CREATE_GRACE_MS);
  }

  /** Milliseconds left before the process must exit; undefined when it is not being stopped. */
  exitBudgetLeftMs(): number | undefined {
    return this.exitByMs === undefined ? undefined : Math.max(0, this.exitByMs - Date.now());
  }

  isTerminating(): boolean {
    return this.terminating;
  }

  /** Whether Cancel (or the engine stopping the process) has come: the run is ending, answers may be lost. */
  isCancelled(): boolean {
    return this.cancelled.signal.aborted;
  }
}
