/**
 * One sdk client per connection for the life of the provider process: the engine runs one dynamic provider process
 * per deployment, so every resource of an `up` shares one session (a handful of session.start calls, not one per
 * resource), one keep-alive connection pool, one limit of requests in flight (`svc:maxConcurrency`) and one backoff
 * when the platform answers 429.
 */
import { SvcClient, type TransportEvent } from "../../sdk";
import type { ConnectionInput } from "./connectionInput";
import { ConnectionError, connectionKey, resolveConnection, type ConfigLookup } from "./connection";
import { noteTransportEvent } from "./telemetry";

/** Retries per call: more than the sdk's 3, so that one `up` converges through a run of faults (0.4^11 ≈ 4e-5 per call at a 40% fault rate) (see docs/design.md). */
export const PROVIDER_MAX_RETRIES = 10;
/**
 * Backoff of those retries: full jitter from 200 ms, capped at 2 s (the sdk caps at 8 s), so ten retries wait about
 * 7 s on average and 14 s at most: a platform blip is short, and a 429's Retry-After is honoured whatever the cap.
 */
export const PROVIDER_BACKOFF = { baseDelayMs: 200, maxDelayMs: 2_000 } as const;

let stackConfig: ConfigLookup = () => undefined;
/** The environment source of the connection (process.env; the takeover command puts its flags in it). */
let environment: NodeJS.ProcessEnv = process.env;
const clients = new Map<string, SvcClient>();
/** Server clock minus local clock (ms), from the Date header of the client's latest answer. */
const serverOffsets = new WeakMap<SvcClient, number>();

/** Called from the dynamic provider's configure(req): keeps a lookup of the stack config for this process. */
export function configure(config: { get(key: string): string | undefined }, env: NodeJS.ProcessEnv = process.env): void {
  stackConfig = (key) => config.get(key);
  environment = env;
}

/**
 * What is wrong with the connection this resource would use, before any call (for check, so that `pulumi preview`
 * reports missing stack config); undefined when it resolves. Never includes a secret.
 */
export function connectionProblem(explicit: ConnectionInput | undefined): string | undefined {
  try {
    resolveConnection(explicit, stackConfig, environment);
    return undefined;
  } catch (error) {
    if (error instanceof ConnectionError) return error.message;
    throw error;
  }
}

/** The account a connection reaches (base URL and partner id), or undefined when it does not resolve. */
export function accountOf(explicit: ConnectionInput | undefined): { baseUrl: string; partnerId: number } | undefined {
  try {
    const { baseUrl, partnerId } = resolveConnection(explicit, stackConfig, environment);
    return { baseUrl, partnerId };
  } catch (error) {
    if (error instanceof ConnectionError) return undefined;
    throw error;
  }
}

export function clientFor(explicit: ConnectionInput | undefined): SvcClient {
  const connection = resolveConnection(explicit, stackConfig, environment);
  const key = connectionKey(connection);
  let client = clients.get(key);
  if (!client) {
    const { auth } = connection;
    let created: SvcClient | undefined;
    const onEvent = (event: TransportEvent): void => {
      noteTransportEvent(event);
      // Date is truncated to the second: the estimate runs at most about a second early, never late.
      if (event.type === "response" && event.serverTimeMs !== undefined && created) serverOffsets.set(created, event.serverTimeMs - Date.now());
    };
    client = created = new SvcClient({
      baseUrl: connection.baseUrl,
      // resolveConnection has applied the plain-http rule with the opt-in of the baseUrl's own source.
      allowInsecureHttp: connection.allowInsecureHttp,
      partnerId: connection.partnerId,
      // Each attempt waits requestTimeoutMs for its answer; the call as a whole (retries, waits for a slot) is bounded
      // by the operation's deadline.
      attemptTimeoutMs: connection.requestTimeoutMs,
      timeoutMs: deadlineMs,
      maxRetries: PROVIDER_MAX_RETRIES,
      retry: PROVIDER_BACKOFF,
      maxConcurrency: connection.maxConcurrency,
      onEvent,
      auth:
        "adminSecret" in auth
          ? { adminSecret: auth.adminSecret }
          : "appTokenId" in auth
            ? { appTokenId: auth.appTokenId, appToken: auth.appToken, hashType: auth.hashType }
            : { ks: auth.ks },
    });
    clients.set(key, client);
  }
  return client;
}

/**
 * The platform's clock now, as well as this process knows it (the Date of the latest answer, one-second resolution);
 * undefined before any answer.
 */
export function serverNowMs(client: SvcClient): number | undefined {
  const offset = serverOffsets.get(client);
  return offset === undefined ? undefined : Date.now() + offset;
}

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

/** Aborted by the plugin's Cancel (the engine is stopping): every operation in flight ends at its next await. */
let cancelled = new AbortController();
/** Set when the engine has closed its connection and is stopping this process: no answer can reach it any more. */
let terminating = false;
let deadlineMs = OPERATION_DEADLINE_MS;

export function operationSignal(): AbortSignal {
  return AbortSignal.any([AbortSignal.timeout(deadlineMs), cancelled.signal]);
}

/**
 * A signal for the end of an interrupted create (the look-up of what it made, a report or a delete): bounded by
 * INTERRUPTED_CREATE_GRACE_MS and, on purpose, not cut by the cancel that interrupted it.
 */
export function graceSignal(): AbortSignal {
  return AbortSignal.timeout(INTERRUPTED_CREATE_GRACE_MS);
}

/** Cancel every operation in flight and every later one of this process (the plugin's Cancel). */
export function cancelOperations(): void {
  cancelled.abort(new Error("the operation was cancelled (pulumi cancel, or the engine is stopping)"));
}

/**
 * The engine is stopping this process (a second Ctrl-C, or the end of a cancelled run): it has closed its connection,
 * so an answer can no longer record anything. Operations are cancelled, and creates delete what they made.
 */
export function terminateOperations(): void {
  terminating = true;
  cancelOperations();
}

export function isTerminating(): boolean {
  return terminating;
}

/** Whether Cancel (or the engine stopping the process) has come: the run is ending, answers may be lost. */
export function isCancelled(): boolean {
  return cancelled.signal.aborted;
}

/** For tests: a shorter operation deadline for the operations that start from now on (undefined: the default). */
export function setOperationDeadlineForTests(ms: number | undefined): void {
  deadlineMs = ms ?? OPERATION_DEADLINE_MS;
}

/** For tests: forget cached clients and config. */
export async function resetForTests(): Promise<void> {
  await Promise.all([...clients.values()].map((c) => c.close()));
  clients.clear();
  stackConfig = () => undefined;
  environment = process.env;
  cancelled = new AbortController();
  terminating = false;
  deadlineMs = OPERATION_DEADLINE_MS;
}
