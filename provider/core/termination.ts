/**
 * The end of a provider process that the engine stops. When a run ends, or at the second Ctrl-C (termination), the
 * engine closes its gRPC connection to each provider, sends SIGINT to the provider's process group, and kills it 5 s
 * later (pkg/resource/plugin/plugin.go, Plugin.Close and the kill function of newPlugin). From that SIGINT on, no
 * answer of this process can reach the state: a create still in flight would leave an object the stack never
 * records. So the SIGINT aborts every operation, lets each create in flight delete what it made (within
 * INTERRUPTED_CREATE_GRACE_MS), and only then exits.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { INTERRUPTED_CREATE_GRACE_MS, terminateOperations } from "./clients";

/** Creates in flight in this process (their end, clean-up included). */
const creates = new Set<Promise<unknown>>();

/** Tracks a create until it has settled, so that a stopping process waits for its clean-up. */
export function trackCreate<T>(create: Promise<T>): Promise<T> {
  creates.add(create);
  const untrack = (): void => {
    creates.delete(create);
  };
  create.then(untrack, untrack);
  return create;
}

/** Aborts every operation and waits (bounded) until the creates in flight have deleted what they made. */
export async function settleBeforeExit(): Promise<void> {
  terminateOperations();
  const bound = new AbortController();
  await Promise.race([
    Promise.allSettled([...creates]),
    // A little more than the grace: the creates' own clean-up is bounded by it.
    sleep(INTERRUPTED_CREATE_GRACE_MS + 250, undefined, { signal: bound.signal }).catch(() => undefined),
  ]);
  bound.abort();
}

/** Called once by the process's entry point (the plugin's main, the dynamic provider's runtime). */
export function exitAfterSettlingOnSigint(): void {
  let stopping = false;
  process.on("SIGINT", () => {
    if (stopping) return;
    stopping = true;
    void settleBeforeExit().finally(() => process.exit(0));
  });
}
