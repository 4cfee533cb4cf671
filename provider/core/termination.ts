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
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { LogLine } from "./operationLog";
import { graceSignal, INTERRUPTED_CREATE_GRACE_MS } from "./operationLifetime";
import { recordEvent } from "./telemetry";

/** An object this process created and answered: how to delete it if the run is terminated. */
export interface AnsweredCreate {
  type: string;
  id: string;
  /** Deletes it, within `signal` (the grace of a stopping process). */
  remove(signal: AbortSignal): Promise<void>;
}

/** The creates of one provider session: those in flight, and those answered during the run. */
export class Termination {
  /** Creates in flight in this process (their end, clean-up included). */
  private readonly creates = new Set<Promise<unknown>>();
  private readonly answered: AnsweredCreate[] = [];

  /** `terminate`: aborts every operation of the session; `log`: the session's diagnostics. */
  constructor(
    private readonly terminate: () => void,
    private readonly log: LogLine,
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
   * What the SIGINT handler runs: aborts every operation, waits (bounded) until the creates in flight have deleted
   * what they made, and, when creates were in flight (a termination), deletes the objects answered during the run.
   */
  async settleBeforeExit(): Promise<void> {
    const terminated = this.creates.size > 0;
    this.terminate();
    await bounded(Promise.allSettled([...this.creates]));
    if (!terminated) return;
    const grace = graceSignal();
    await bounded(
      Promise.allSettled(
        this.answered.splice(0).map(async (object) => {
          const cause = "the engine stopped this process in the middle of the run";
          try {
            await object.remove(grace);
            recordEvent(this.log, { type: "interrupted", resource: object.type, outcome: "rolledBack", id: object.id, cause });
          } catch {
            recordEvent(this.log, { type: "interrupted", resource: object.type, outcome: "unknown", id: object.id, cause });
          }
        }),
      ),
    );
  }
}

/** Waits for `work`, at most a little more than the grace (the work is bounded by it too). */
async function bounded(work: Promise<unknown>): Promise<void> {
  const timer = new AbortController();
  await Promise.race([work, sleep(INTERRUPTED_CREATE_GRACE_MS + 250, undefined, { signal: timer.signal }).catch(() => undefined)]);
  timer.abort();
}

/** Called once by the process's entry point (the plugin's main, the dynamic provider's runtime) with its session's. */
export function exitAfterSettlingOnSigint(termination: Pick<Termination, "settleBeforeExit">): void {
  let stopping = false;
  process.on("SIGINT", () => {
    if (stopping) return;
    stopping = true;
    void termination.settleBeforeExit().finally(() => process.exit(0));
  });
}
