/**
 * What one provider operation (a create, a read, an update, a delete, a list, a function's lookup) works with,
 * handed to the definition by its caller, as pulumi-go-provider's `infer` passes `ctx`: the sdk client of the
 * account the operation acts on, the signal that ends it, the platform's clock and the operation's diagnostics. A
 * definition reads nothing of the process around it, so following a create from a program to the HTTP request is
 * plain go-to-definition: the handlers ask their provider process (`ProviderProcessCore.contextFor`,
 * providerProcessCore.ts) for the context, the definition calls `ctx.client`.
 */
import type { SvcClient } from "../../sdk";
import type { CreateLedger } from "./createLedger";
import type { OperationLifetime } from "./operationLifetime";
import type { LogLine } from "./operationLog";

export interface OperationContext {
  /** The sdk client of the account this operation acts on (its connection resolved). */
  readonly client: SvcClient;
  /** Aborted by Cancel or by the operation's deadline; every call of the operation passes it on. */
  readonly signal: AbortSignal;
  /** The platform's clock now (ms), from the Date header of the client's latest answer; undefined before any. */
  serverNowMs(): number | undefined;
  /** A line of diagnostics on the operation's resource (the engine's log in the plugin; nowhere otherwise). */
  readonly log: LogLine;
  /** The account searched, as a message names it: partner and host, never a URL's userinfo. */
  readonly accountName: string;
  /** The managed ids and creates in flight of the provider process (create recovery, recovery.ts). */
  readonly ledger: CreateLedger;
  /** How long one request waits for its answer (svc:requestTimeoutMs): what was sent may commit until then. */
  readonly requestTimeoutMs?: number;
  /** The bounds of an interrupted create's end (the session's lifetime: the exit budget once it is stopped). */
  readonly interruption?: Pick<OperationLifetime, "endUntil" | "grace">;
}
