/**
 * The end of a provider process that the engine stops. When a run ends, and at the second Ctrl-C (termination), the
 * engine closes its gRPC connection to each provider, sends SIGINT to the provider's process group and kills it 5 s
 * later (pkg/resource/plugin/plugin.go: Plugin.Close, and the kill function of newPlugin). From that SIGINT on, no
 * answer of this process reaches the state.
 *
 * At the end of a run nothing is in flight and the engine has written every answer. A SIGINT that finds creates
 * still in flight is a termination: the engine did not wait for them, and it may also have dropped answers it had
 * received but not yet written (it writes the state once per step, in order; seen here: tokens answered 100 ms before
 * the second Ctrl-C missing from the state). So every create in flight deletes what it made, and every object this
 * process created during the run is deleted too: a terminated run leaves nothing it created that the stack might not
 * know. The recovery step (docs/design.md, "Interrupted runs") drops from the state what was deleted.
 *
 * All of it shares one budget from the SIGINT (EXIT_BUDGET_MS, under the engine's 5 s kill): the creates in flight
 * end within it (operationLifetime.ts cuts their look-ups and deletes at its end), and the roll-backs run at the same
 * time, not after them. What could not be deleted in time is named (type and id) in a warning, never claimed gone.
 */
import type { LogLine } from "./operationLog";
import { EXIT_BUDGET_MS } from "./operationLifetime";
import { recordEvent } from "./telemetry";

/** An object this process created and answered: how to delete it if the run is terminated. */
export interface AnsweredCreate {
  type: string;
  id: string;
  /** Deletes it, within `signal` (the grace of a stopping process). */
  remove(signal: AbortSignal): Promise<void>;
}

/** The creates of one provider process: those in flight, and those answered during the run. */
export class Termination {
  /** Creates in flight in this process (their end, clean-up included). */
  private readonly creates = new Set<Promise<unknown>>();
  private readonly answered: AnsweredCreate[] = [];

  /**
   * `terminate`: aborts every operation of the session (and starts its exit budget); `exitSignal`: a signal ended by
   * the exit budget, for the roll-backs; `log`: the session's diagnostics.
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

  /** Notes an object whose create was answered: deleted if the run is terminated (above). */
  noteAnswered(object: AnsweredCreate): void {
    this.answered.push(object);
  }

  /**
   * What the SIGINT handler runs: aborts every operation and, when creates were in flight (a termination), deletes
   * the objects answered during the run while the creates in flight delete what they made; returns within the exit
   * budget, with the objects that may remain (a delete that failed or did not finish in time).
   */
  async settleBeforeExit(): Promise<{ leftBehind: { type: string; id: string }[] }> {
    const terminated = this.creates.size > 0;
    this.terminate();
    const exit = this.exitSignal();
    const leftBehind: { type: string; id: string }[] = [];
    const cause = "the engine stopped this process in the middle of the run";
    const rollBacks = terminated
      ? this.answered.splice(0).map(async (object) => {
          try {
            await object.remove(exit);
            recordEvent(this.log, { type: "interrupted", resource: object.type, outcome: "rolledBack", id: object.id, cause });
          } catch {
            leftBehind.push({ type: object.type, id: object.id });
            recordEvent(this.log, { type: "interrupted", resource: object.type, outcome: "leftBehind", id: object.id, cause });
          }
        })
      : [];
    await untilAborted(Promise.allSettled([...this.creates, ...rollBacks]), exit);
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

/** Called once by the process's entry point (the plugin's main, the dynamic provider's runtime) with its session's. */
export function exitAfterSettlingOnSigint(termination: Pick<Termination, "settleBeforeExit">): void {
  let stopping = false;
  process.on("SIGINT", () => {
    if (stopping) return;
    stopping = true;
    void termination
      .settleBeforeExit()
      .then(({ leftBehind }) => {
        // The engine has closed its connection: stderr is the one place left to say what may remain.
        if (leftBehind.length > 0) {
          const named = leftBehind.map((object) => `${object.type} ${object.id}`).join(", ");
          process.stderr.write(`pulumi-svc: stopped in the middle of a run; these may remain on the platform, unrecorded: ${named}. Run pulumi-svc recover.\n`);
        }
      })
      .finally(() => process.exit(0));
  });
}
