/**
 * The end of a provider process that the engine stops. When a run ends, and at the second Ctrl-C (termination), the
 * engine closes its gRPC connection to each provider, sends SIGINT to the provider's process group and kills it 5 s
 * later (pkg/resource/plugin/plugin.go: Plugin.Close, and the kill function of newPlugin). From that SIGINT on, no
 * answer of this process reaches the state.
 *
 * At the end of a run nothing is in flight. A SIGINT that finds creates still in flight is a termination: those
 * creates will never be answered, so each deletes what it made (runtime/handlers.ts). A create this process has
 * answered is never deleted here: the engine may have recorded it (its state is written once per step, in order, so
 * an answer received just before the stop may also be missing). Such an object stays on the platform as the object of
 * a pending create of the state; `pulumi-svc recover` sees the state and settles it, this process does not.
 *
 * The creates in flight share one budget from the SIGINT (EXIT_BUDGET_MS, under the engine's 5 s kill):
 * operationLifetime.ts cuts their look-ups and deletes at its end. What a create in flight made and could not delete
 * in time (or whose delete failed) is named (type and id) in a warning, never claimed gone.
 */
import { fstatSync } from "node:fs";
import type { LogLine } from "./operationLog";
import { EXIT_BUDGET_MS } from "./operationLifetime";
import { recordEvent } from "./telemetry";

/** An object a create made, as a warning names it. */
export interface MadeObject {
  type: string;
  id: string;
}

/** The creates in flight of one provider process, and what they made that is not deleted yet. */
export class Termination {
  /** Creates in flight in this process (their end, clean-up included). */
  private readonly creates = new Set<Promise<unknown>>();
  /** Objects made by creates that will not answer with them, until their delete succeeds. */
  private readonly undeleted = new Set<MadeObject>();
  private stopping = false;

  /**
   * `terminate`: aborts every operation of the session (and starts its exit budget); `exitSignal`: a signal ended by
   * the exit budget; `log`: the session's diagnostics.
   */
  constructor(
    private readonly terminate: () => void,
    private readonly log: LogLine,
    private readonly exitSignal: () => AbortSignal = () => AbortSignal.timeout(EXIT_BUDGET_MS),
  ) {}

  /** Tracks a create until it has settled, so that a stopping process waits for its clean-up. */
  trackCreate<T>(create: Promise<T>): Promise<T> {
    this.creates.add(create);
    const untrack = (): void => {
      this.creates.delete(create);
    };
    create.then(untrack, untrack);
    return create;
  }

  /**
   * Deletes what an interrupted create made instead of answering with it. Until `remove` succeeds the object is named
   * at the exit if the process is stopped; a delete that fails before that is answered as a partial create, which
   * the engine records (runtime/handlers.ts), so it is not named.
   */
  async deleteUnanswered(object: MadeObject, remove: () => Promise<void>): Promise<void> {
    this.undeleted.add(object);
    try {
      await remove();
    } catch (error) {
      if (!this.stopping) this.undeleted.delete(object);
      throw error;
    }
    this.undeleted.delete(object);
  }

  /**
   * What the SIGINT handler runs: aborts every operation, waits for the creates in flight to delete what they made,
   * within the exit budget, and returns what may remain (a delete that failed or did not finish in time).
   */
  async settleBeforeExit(): Promise<{ leftBehind: MadeObject[] }> {
    this.stopping = true;
    this.terminate();
    await untilAborted(Promise.allSettled([...this.creates]), this.exitSignal());
    const leftBehind = [...this.undeleted];
    const cause = "the engine stopped this process in the middle of the run";
    for (const { type, id } of leftBehind) recordEvent(this.log, { type: "interrupted", resource: type, outcome: "leftBehind", id, cause });
    return { leftBehind };
  }
}

/** Waits for `work`, or until `signal` aborts (the work is bounded by it too: this only stops waiting). */
async function untilAborted(work: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  let stop = (): void => undefined;
  const aborted = new Promise<void>((resolve) => {
    stop = resolve;
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await Promise.race([work, aborted]);
  stop();
}

/**
 * Called once by the process's entry point (the plugin's main, the dynamic provider's runtime) with its session's:
 * the process settles and exits at the engine's SIGINT, and, with `engineStdin`, when the engine is gone. The engine
 * gives each provider process a pipe for stdin and never closes it while it runs (Pulumi's Go sdk,
 * plugin.go); its end closes when the engine's process dies, even by SIGKILL of the CLI alone (the out-of-memory
 * killer's usual choice), which sends no SIGINT. Without this the process would go on making the creates it had in
 * flight, for a run that can no longer record them, and outlive it. Only a pipe or a socket is watched: a process
 * started by hand (a terminal) or with stdin closed (/dev/null) has no engine behind its stdin.
 */
export function exitAfterSettlingWhenStopped(termination: Pick<Termination, "settleBeforeExit">, options: { engineStdin: boolean }): void {
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void termination
      .settleBeforeExit()
      .then(({ leftBehind }) => reportLeftBehind(leftBehind))
      .finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  if (options.engineStdin && stdinIsPipe()) whenStdinEnds(stop);
}

/** What a stopped process may have left on the platform, said on stderr: the engine has closed its connection, so it is the one place left. */
export function reportLeftBehind(leftBehind: readonly { type: string; id: string }[]): void {
  if (leftBehind.length === 0) return;
  const named = leftBehind.map((object) => `${object.type} ${object.id}`).join(", ");
  process.stderr.write(`pulumi-svc: stopped in the middle of a run; these may remain on the platform, unrecorded: ${named}. Run pulumi-svc recover.\n`);
}

/** Calls `stop` when stdin ends: the process that holds its other end closed it, or died (even by SIGKILL). */
export function whenStdinEnds(stop: () => void): void {
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
  process.stdin.on("error", stop);
  process.stdin.resume();
}

/** Whether fd 0 is a pipe or a socket (what a parent process holds the other end of). */
function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}
