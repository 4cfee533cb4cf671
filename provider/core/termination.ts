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
import { fstatSync } from "node:fs";
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
