/**
 * Creates that recover from an ambiguous failure. The platform honours no idempotency key, so when a create's answer
 * is lost (no answer, a timeout, a 5xx) the object may or may not exist. Before trying again we look for it:
 * exactly one match is adopted, none means the create did not happen (create again), several is an error naming the
 * candidates. What "a match" is belongs to each resource (a template by its unique systemName, an app token by its
 * creation fields and a creation time since the first attempt started); objects this process already knows as
 * managed by the stack are never candidates.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { mayHaveActed, mayStillAct } from "../../sdk/transport/retryPolicy";
import { failureText, PartialCreateError, ProviderError } from "./errors";
import type { OperationContext } from "./operationContext";
import { graceSignal, INTERRUPTED_CREATE_GRACE_MS } from "./operationLifetime";
import { recordEvent } from "./telemetry";

/** Create rounds at most (each round's call has its own retries for failures where the platform did not act). */
export const MAX_CREATE_ROUNDS = 10;
/**
 * Slack on the creation-time window, in seconds: the server's clock is known from the Date header (truncated to the
 * second) of the latest answer, and createdAt is in seconds; without any answer yet, a minute.
 */
export const CLOCK_SLACK_SECONDS = 2;
export const UNKNOWN_CLOCK_SLACK_SECONDS = 60;

export interface RecoverableCreate<T> {
  /** What is created, for messages and events ("app token", "template"). */
  what: string;
  /** The fields the create sends, as one string: creates of equal fields in this process are waited for (below). */
  fingerprint: string;
  create(): Promise<T>;
  /**
   * The objects the lost create(s) may have made: matching the declared fields, created at or after
   * `sinceServerSec` (unix seconds on the platform's clock). Managed ids are filtered out by the caller.
   */
  find(sinceServerSec: number, signal: AbortSignal): Promise<T[]>;
  idOf(object: T): string;
  /** The outputs of an object reported to the engine as a partial create (secrets are wrapped by the caller). */
  propertiesOf(object: T): Record<string, unknown>;
  /**
   * Whether a found object can be adopted as it is; when not (e.g. its secret value cannot be read back with this
   * connection), it is deleted and created again.
   */
  usable?(object: T): boolean;
  discard?(object: T, signal: AbortSignal): Promise<void>;
}

/** How often an interrupted create looks again for what it may have made, until the platform can no longer make it. */
export const INTERRUPTED_LOOKUP_INTERVAL_MS = 500;

/** A plan with what the operation brings. */
type Plan<T> = RecoverableCreate<T> & Pick<OperationContext, "signal" | "serverNowMs" | "ledger" | "log" | "requestTimeoutMs" | "interruption">;

/**
 * Creates by `plan` within the operation `ctx` (its signal: Cancel or the deadline; its clock: the platform's; its
 * ledger: the managed ids and creates in flight of the provider process).
 */
export async function createWithRecovery<T>(ctx: OperationContext, recoverable: RecoverableCreate<T>): Promise<T> {
  const plan: Plan<T> = {
    ...recoverable,
    signal: ctx.signal,
    serverNowMs: ctx.serverNowMs,
    ledger: ctx.ledger,
    log: ctx.log,
    ...(ctx.requestTimeoutMs !== undefined ? { requestTimeoutMs: ctx.requestTimeoutMs } : {}),
    ...(ctx.interruption ? { interruption: ctx.interruption } : {}),
  };
  const startedAt = Date.now();
  // The platform's time when the first attempt started: read after a failure, when the clock is surely known.
  const sinceServerSec = (): number => {
    const serverNow = plan.serverNowMs();
    return serverNow === undefined
      ? Math.floor(startedAt / 1000) - UNKNOWN_CLOCK_SLACK_SECONDS
      : Math.floor((serverNow - (Date.now() - startedAt)) / 1000) - CLOCK_SLACK_SECONDS;
  };
  const progress: Progress = { mayHaveMade: false, inFlight: false };
  try {
    return await createInRounds(plan, sinceServerSec, progress);
  } catch (error) {
    // Interrupted (Cancel or the deadline) once a request that may act was sent: the platform may have made the
    // object, and only a look-up can tell. Interrupted before that (nothing sent yet, or only waiting out a 429's
    // Retry-After or a slot, every request answered without acting): nothing can exist, the error stands.
    if (!plan.signal.aborted || !progress.mayHaveMade) throw error;
    return await settleInterrupted(plan, error, sinceServerSec(), progress.inFlight);
  }
}

interface Progress {
  /** A create request went out whose answer does not rule out the object: a round's lost answer, or the call cut on the wire. */
  mayHaveMade: boolean;
  /** The call cut by the interruption had a request on the wire, unanswered: it may still commit until its timeout. */
  inFlight: boolean;
}

async function createInRounds<T>(plan: Plan<T>, sinceServerSec: () => number, progress: Progress): Promise<T> {
  let since: number | undefined;
  for (let round = 1; ; round++) {
    let lastError: unknown;
    if (plan.signal.aborted) throw plan.signal.reason;
    const attempt = plan.create();
    plan.ledger.track(plan.fingerprint, attempt);
    try {
      const made = await attempt;
      plan.ledger.noteManaged(plan.idOf(made));
      return made;
    } catch (error) {
      if (plan.signal.aborted) {
        // Cut by the interruption while its request was on the wire: it may commit later, and is waited for. Cut while
        // the client only waited (a Retry-After, a slot) with every request answered: nothing of this call can commit.
        progress.inFlight = mayStillAct(error);
        progress.mayHaveMade ||= progress.inFlight;
        throw error;
      }
      if (!mayHaveActed(error) || round >= MAX_CREATE_ROUNDS) throw error;
      progress.mayHaveMade = true;
      lastError = error;
    }
    const cause = describe(lastError);
    since ??= sinceServerSec();
    // Another resource of this process creating an object with the same fields must finish first: its object would
    // otherwise look like ours. Once its id is known it is managed, hence excluded.
    await plan.ledger.settled(plan.fingerprint);
    // Filtered and claimed without an await in between: two recoveries never adopt the same object.
    const found = (await plan.find(since, plan.signal)).filter((object) => !plan.ledger.isManaged(plan.idOf(object)));
    if (found.length > 1) throw severalFound(plan, found, cause);
    const [only] = found;
    if (only !== undefined && (plan.usable?.(only) ?? true)) {
      plan.ledger.noteManaged(plan.idOf(only));
      recordEvent(plan.log, { type: "recovery", resource: plan.what, outcome: "adopted", round, id: plan.idOf(only), cause });
      return only;
    }
    if (only !== undefined) {
      await discardOrReport(plan, only, cause, round);
      recordEvent(plan.log, { type: "recovery", resource: plan.what, outcome: "replacedUnreadable", round, id: plan.idOf(only), cause });
    } else {
      recordEvent(plan.log, { type: "recovery", resource: plan.what, outcome: "createdAgain", round, cause });
    }
    // A short, growing pause before creating again: the platform was failing a moment ago.
    await sleep(Math.floor(Math.random() * 250 * 2 ** (round - 1)), undefined, { signal: plan.signal });
  }
}

/**
 * The end of a create interrupted after its request was sent. The request may still commit on the platform until
 * its own timeout (`requestTimeoutMs` from the interruption: the attempt in flight started before it), so the look-up
 * is repeated until then, or until the end's budget runs out (the exit budget once the engine stops the process);
 * it is not cut by the interruption. None found by the time the platform can no longer act: the platform did not act,
 * the interruption is the answer and nothing is left. None found but the budget ran out first: the error says that
 * one may still appear (a run that died leaves it to `pulumi-svc recover`). One found: it becomes a partial create
 * (the id and what is known), which the engine records after a deadline and the handlers turn into a delete after
 * Cancel (runtime/handlers.ts); when it is of no use to the program (a token whose value cannot be read) it is
 * deleted here. A look-up that fails says so: the platform may hold an object the stack does not record.
 */
async function settleInterrupted<T>(plan: Plan<T>, interruption: unknown, since: number, callInFlight: boolean): Promise<never> {
  const cause = describe(interruption);
  // No call running when it was interrupted (between rounds): every request sent has had its answer, one look suffices.
  const answerByMs = Date.now() + (callInFlight ? (plan.requestTimeoutMs ?? 0) : 0);
  // At least one step's grace for the look-up itself, however short the request timeout.
  const lookup = plan.interruption?.endUntil(Math.max(answerByMs, Date.now() + INTERRUPTED_CREATE_GRACE_MS)) ?? graceSignal();
  let found: T[];
  try {
    await Promise.race([plan.ledger.settled(plan.fingerprint), aborted(lookup)]);
    for (;;) {
      found = (await plan.find(since, lookup)).filter((object) => !plan.ledger.isManaged(plan.idOf(object)));
      if (found.length > 0 || Date.now() >= answerByMs) break;
      await sleep(Math.min(INTERRUPTED_LOOKUP_INTERVAL_MS, answerByMs - Date.now()), undefined, { signal: lookup });
    }
  } catch (lookupError) {
    recordEvent(plan.log, { type: "interrupted", resource: plan.what, outcome: "unknown", cause });
    const stillPossible = lookup.aborted && Date.now() < answerByMs;
    throw new ProviderError(
      stillPossible
        ? `${plan.what} create was interrupted (${cause}) after its request was sent; none was found before this process had to stop, and the platform may still make it ` +
            `until ${new Date(answerByMs).toISOString()} (the request's timeout): after the run, \`pulumi-svc recover\` finds it and deletes or adopts it`
        : `${plan.what} create was interrupted (${cause}) after its request was sent, and looking for what it made failed (${describe(lookupError)}); ` +
            `the platform may hold a ${plan.what} this stack does not record: after the run, \`pulumi-svc recover\` finds it (or adopt it with adoptId)`,
    );
  }
  if (found.length > 1) throw severalFound(plan, found, cause);
  const [only] = found;
  if (only === undefined) {
    recordEvent(plan.log, { type: "interrupted", resource: plan.what, outcome: "nothingMade", cause });
    throw interruption;
  }
  const id = plan.idOf(only);
  plan.ledger.noteManaged(id);
  if (!(plan.usable?.(only) ?? true)) {
    try {
      await plan.discard?.(only, plan.interruption?.grace() ?? graceSignal());
    } catch (discardError) {
      recordEvent(plan.log, { type: "interrupted", resource: plan.what, outcome: "leftBehind", id, cause });
      throw new ProviderError(
        `${plan.what} create was interrupted (${cause}); the ${plan.what} it made (${id}) could not be used, and deleting it failed (${describe(discardError)}): delete it by hand, or run \`pulumi-svc recover\` after the run`,
      );
    }
    recordEvent(plan.log, { type: "interrupted", resource: plan.what, outcome: "deleted", id, cause });
    throw new ProviderError(
      `${plan.what} create was interrupted (${cause}); the ${plan.what} it made (${id}) could not be used and was deleted, so nothing is left behind`,
    );
  }
  recordEvent(plan.log, { type: "interrupted", resource: plan.what, outcome: "found", id, cause });
  // A partial create: recorded by the engine as it is (after a deadline), or deleted by the caller (after Cancel).
  throw new PartialCreateError(
    `${plan.what} ${id} was created, but the operation was interrupted (${cause}) before it finished; it is recorded in the stack as it is, and the next pulumi up completes it`,
    id,
    plan.propertiesOf(only),
  );
}

/**
 * Deletes an object a lost create made that the program cannot use, before creating again; when that fails the
 * object is left on the platform, unrecorded: reported (type and id) and the create fails, naming it.
 */
async function discardOrReport<T>(plan: Plan<T>, object: T, cause: string, round: number): Promise<void> {
  try {
    await plan.discard?.(object, plan.signal);
  } catch (discardError) {
    const id = plan.idOf(object);
    recordEvent(plan.log, { type: "recovery", resource: plan.what, outcome: "discardFailed", round, id, cause });
    throw new ProviderError(
      `${plan.what} create: the answer was lost (${cause}); the ${plan.what} it made (${id}) could not be used, and deleting it failed (${describe(discardError)}); ` +
        `it remains on the platform and no stack records it: delete it by hand, or run \`pulumi-svc recover\` after the run`,
    );
  }
}

function severalFound<T>(plan: Plan<T>, found: T[], cause: string): ProviderError {
  const ids = found.map(plan.idOf).join(", ");
  return new ProviderError(
    `${plan.what} create: the answer was lost (${cause}) and ${found.length} ${plan.what}s created since then match the declared fields (${ids}); ` +
      `nothing was adopted. Keep the one you want with adoptId and delete the others, or delete them all and run again`,
  );
}

/** Settles (never rejects) when the signal aborts. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
}

/** The error's code (ERROR when it has none) and message, both redacted, the code cut short. */
function describe(error: unknown): string {
  return failureText(error, "ERROR");
}
